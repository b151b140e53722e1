#!/usr/bin/env bash
# How each proxy scales from one core to two: bench/run.sh in the shared layout (every
# process, wrk included, free to use both cores) with one worker per proxy (Faultline
# `workers: 1`, nginx `worker_processes 1`, HAProxy `nbthread 1`) and with two, alternated
# round by round so both see the same machine, for keep-alive HTTP/1, the TLS listener and
# h2. Prints, per scenario and proxy, the median req/s with one and with two workers and
# their ratio, and whether Faultline's ratio is at least the better peer's. Beside each ratio,
# how busy the whole machine was (cores) with one worker and with two, and the ceiling that
# leaves: at the same CPU per request, a second worker only gets what one worker's run left
# idle. See docs/bench.md.
#
#   bench/scaling.sh                         3 rounds of 6 s per measurement
#   BENCH_ROUNDS=5 BENCH_SECONDS=10 bench/scaling.sh
#
# Environment: BENCH_ROUNDS (default 3), BENCH_SECONDS (default 6), BENCH_WARMUP (default 1),
# BENCH_SCENARIOS (default keepalive,tls_listener,h2), BENCH_OUT (default
# bench/results/scaling-latest.md); the rest as bench/run.sh.
set -euo pipefail
BENCH_NAME=scaling
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
rounds=${BENCH_ROUNDS:-3}
[[ $rounds =~ ^[1-9][0-9]?$ ]] || { echo "scaling: BENCH_ROUNDS must be 1-99, got '$rounds'" >&2; exit 2; }
scenarios=${BENCH_SCENARIOS:-keepalive,tls_listener,h2}
out=${BENCH_OUT:-$ROOT/bench/results/scaling-latest.md}
work=$(mktemp -d /tmp/faultline-scaling.XXXXXX)
trap 'rm -rf "$work"' EXIT
loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)

for ((round = 1; round <= rounds; round++)); do
  for workers in 1 2; do
    echo "scaling: round $round of $rounds, $workers worker(s) per proxy" >&2
    run_bench_once "$work" "$workers-$round" BENCH_LAYOUT=shared BENCH_WORKERS="$workers" \
      BENCH_SCENARIOS="$scenarios" BENCH_SECONDS="${BENCH_SECONDS:-6}" BENCH_WARMUP="${BENCH_WARMUP:-1}"
  done
done

mkdir -p "$(dirname "$out")"
PYTHONPATH="$BENCH_DIR" python3 - "$work" "$rounds" "$scenarios" "$out" "$loadavg_start" <<'PY'
import datetime, os, statistics, sys
from bench_stats import load_scenario_runs, per_request, write_report

work, rounds, scenarios, out, load_start = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4], sys.argv[5]
proxies = ["faultline", "nginx", "haproxy"]
label = {"faultline": "Faultline", "nginx": "nginx", "haproxy": "HAProxy"}
names = {"keepalive": "keep-alive GET /64, 50 conns", "tls_listener": "TLS listener, keep-alive GET /64, 50 conns",
         "h2": "h2 TLS listener, GET /64, 10 conns × 10 streams"}

def measured(workers):
    """{(proxy, scenario): [req/s per round]}, {(proxy, scenario): [cores busy per round]},
    {(proxy, scenario): [(proxy, client, origin) CPU µs per request, per round]},
    {(proxy, scenario): [TCP connections opened per 1,000 requests, per round]},
    {(proxy, scenario): [cores the proxy's own process kept busy, per round]}"""
    rates, busy, split, opens, own = {}, {}, {}, {}, {}
    for r in range(1, rounds + 1):
        for key, runs in load_scenario_runs(os.path.join(work, f"results-{workers}-{r}.tsv")).items():
            for kv in runs:
                if "requests" in kv and "status" not in kv:
                    seconds = int(kv["duration_us"]) / 1e6
                    rates.setdefault(key, []).append(int(kv["requests"]) / seconds)
                    if "cpu_us" in kv:
                        own.setdefault(key, []).append(int(kv["cpu_us"]) / int(kv["duration_us"]))
                    if int(kv.get("machine_all_us", 0)) > 0:
                        busy.setdefault(key, []).append(int(kv["machine_busy_us"]) / int(kv["machine_all_us"]) * cores)
                    if "origin_cpu_us" in kv:
                        split.setdefault(key, []).append(tuple(per_request(kv, f) for f in
                                                               ("cpu_us", "client_cpu_us", "origin_cpu_us")))
                    if "tcp_opens" in kv:
                        opens.setdefault(key, []).append(per_request(kv, "tcp_opens") * 1000)
    return rates, busy, split, opens, own

cores = os.cpu_count() or 1
(one, busy_one, split_one, opens_one, own_one), (two, busy_two, split_two, opens_two, own_two) = measured(1), measured(2)

def busy_cells(key):
    """The cores-busy and ceiling cells of one proxy and scenario."""
    a, b = busy_one.get(key), busy_two.get(key)
    if not a or not b:
        return ["n/a", "n/a"]
    ma = statistics.median(a)
    return [f"{ma:.2f} → {statistics.median(b):.2f}", f"{cores / ma:.2f}×"]

def own_cell(key):
    """Cores the proxy's own process kept busy, one → two workers."""
    a, b = own_one.get(key), own_two.get(key)
    if not a or not b:
        return "n/a"
    return f"{statistics.median(a):.2f} → {statistics.median(b):.2f}"

def split_cell(key):
    """CPU µs per request of the proxy, the load generator and the origin, one → two workers."""
    a, b = split_one.get(key), split_two.get(key)
    if not a or not b:
        return "n/a"
    med = lambda rows: [statistics.median(r[i] for r in rows) for i in range(3)]
    return " → ".join(" / ".join(f"{v:.1f}" for v in med(rows)) for rows in (a, b))

def opens_cell(key):
    """TCP connections opened per 1,000 requests, one → two workers."""
    a, b = opens_one.get(key), opens_two.get(key)
    if not a or not b:
        return "n/a"
    return f"{statistics.median(a):.1f} → {statistics.median(b):.1f}"

lines = [f"# Scaling from one worker to two\n",
         f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC · {cores} cores · "
         f"median of {rounds} rounds, one and two workers alternated · load average {load_start} at the start\n",
         "Layout **shared**: the proxies, the nginx origin (1 worker) and wrk/h2load (2 threads) all free to use "
         "both cores; one worker means Faultline `workers: 1`, nginx `worker_processes 1`, HAProxy `nbthread 1`.\n",
         "Cores busy: the whole machine's CPU time (every process: proxy, origin, client, anything else) over "
         "the measurement, in cores. A second worker can only use what one worker left idle: "
         f"ceiling = {cores} ÷ cores busy with one worker, what 2 ÷ 1 reaches if the whole machine's CPU per "
         "request stays the same. Passing it takes less CPU per request, in the proxy, the client or the origin.\n",
         "Proxy's cores: the CPU time of the proxy's own process over the measurement, in cores. One worker "
         "is the limit only when it keeps a whole core busy; one that keeps less busy was waiting for the "
         "client and the origin, so a second worker has nothing of its own to take over: 2 ÷ 1 then moves "
         "with the idle time the one-worker run left (the ceiling) and with the whole machine's CPU per request.\n",
         "CPU per request: µs of CPU time per request of the proxy / the load generator / the origin, with one "
         "worker → with two (each process's own user and system time, medians over the rounds).\n",
         "Connections opened: TCP connections the machine opened per 1,000 requests (the client's and the "
         "proxy's to the origin); above zero on these keep-alive rows, a proxy is closing pooled upstream "
         "connections and opening them again.\n",
         "| scenario | proxy | req/s, 1 worker | req/s, 2 workers | 2 ÷ 1 | cores busy, 1 → 2 workers | ceiling | proxy's cores, 1 → 2 workers | CPU per request, proxy / client / origin | connections opened per 1k requests |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
targets = []
for scenario in scenarios:
    ratios = {}
    for proxy in proxies:
        a, b = one.get((proxy, scenario)), two.get((proxy, scenario))
        if not a or not b:
            lines.append(f"| {names.get(scenario, scenario)} | {label[proxy]} | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |")
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        ratios[proxy] = mb / ma
        cells = [names.get(scenario, scenario), label[proxy], f"{ma:,.0f}", f"{mb:,.0f}", f"{mb / ma:.2f}×"]
        lines.append("| " + " | ".join(cells + busy_cells((proxy, scenario)) + [own_cell((proxy, scenario)), split_cell((proxy, scenario)), opens_cell((proxy, scenario))]) + " |")
    peers = {p: r for p, r in ratios.items() if p != "faultline"}
    if "faultline" in ratios and peers:
        best = max(peers, key=peers.get)
        met = ratios["faultline"] >= peers[best]
        # Three decimals where two would print a tie, so the verdict can be read off the line.
        digits = 3 if f"{ratios['faultline']:.2f}" == f"{peers[best]:.2f}" else 2
        targets.append(f"- {names.get(scenario, scenario)}: Faultline scales {ratios['faultline']:.{digits}f}×, "
                       f"the better peer ({label[best]}) {peers[best]:.{digits}f}×: {'met' if met else '**missed**'}")
lines += ["", "Target: Faultline's scaling from one worker to two at least the better peer's.", ""] + targets
lines.append(f"\nLoad average at the end: {open('/proc/loadavg').read().split()[0:3]}")
write_report("\n".join(lines) + "\n", out)
PY
