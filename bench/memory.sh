#!/usr/bin/env bash
# Where each proxy's peak resident memory comes from: bench/run.sh once per scenario, each
# time with freshly started proxies, so every row is the peak that one scenario alone drives.
# Prints per scenario and proxy the resident memory before the load, the peak (VmHWM, summed
# over the process tree) and, at the end of the run, its anonymous (heap, stacks, buffers) and
# file-backed (the binary's and libraries' pages) parts, and Faultline's peak ÷ HAProxy's.
# See docs/bench.md.
#
#   bench/memory.sh                                   every scenario, 4 s each
#   BENCH_SCENARIOS=keepalive,h2 bench/memory.sh
#
# Environment: BENCH_SCENARIOS (default every scenario of bench/run.sh), BENCH_SECONDS
# (default 4), BENCH_WARMUP (default 1), BENCH_LAYOUT (default split), BENCH_OUT (default
# bench/results/memory-latest.md); the rest as bench/run.sh.
set -euo pipefail
BENCH_NAME=memory
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
scenarios=${BENCH_SCENARIOS:-keepalive,latency,large,close,tls_upstream,tls_listener,tls_close,h2,h2_large}
layout=${BENCH_LAYOUT:-split}
out=${BENCH_OUT:-$ROOT/bench/results/memory-latest.md}
work=$(mktemp -d /tmp/faultline-memory.XXXXXX)
trap 'rm -rf "$work"' EXIT
loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)

IFS=',' read -r -a wanted <<<"$scenarios"
for scenario in "${wanted[@]}"; do
  echo "memory: $scenario" >&2
  run_bench_once "$work" "$scenario" BENCH_LAYOUT="$layout" BENCH_SCENARIOS="$scenario" \
    BENCH_SECONDS="${BENCH_SECONDS:-4}" BENCH_WARMUP="${BENCH_WARMUP:-1}"
done

mkdir -p "$(dirname "$out")"
PYTHONPATH="$BENCH_DIR" python3 - "$work" "$scenarios" "$out" "$loadavg_start" "$layout" <<'PY'
import datetime, os, sys
from bench_stats import load_scenario_runs, write_report

work, scenarios, out, load_start, layout = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4], sys.argv[5]
proxies = ["faultline", "nginx", "haproxy"]
label = {"faultline": "Faultline", "nginx": "nginx", "haproxy": "HAProxy"}

def mib(kb):
    return f"{int(kb) / 1024:.1f}"

lines = ["# Peak resident memory per scenario\n",
         f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC · {os.cpu_count()} cores · layout {layout} · "
         f"one bench/run.sh per scenario, proxies started afresh for each · load average {load_start} at the start\n",
         "MiB, summed over each proxy's processes (nginx: master and worker). Idle: VmRSS before the load. "
         "Peak: VmHWM. Anonymous and file: RssAnon and RssFile at the end of the run.\n",
         "| scenario | proxy | idle | peak | anonymous | file | peak ÷ HAProxy's |", "|---|---|---:|---:|---:|---:|---:|"]
worst = None
for scenario in scenarios:
    runs = load_scenario_runs(os.path.join(work, f"results-{scenario}.tsv"))
    rows = {proxy: found[-1] for (proxy, kind), found in runs.items() if kind == "rss"}
    base = rows.get("haproxy", {}).get("rss_kb")
    for proxy in proxies:
        kv = rows.get(proxy)
        if not kv:
            lines.append(f"| {scenario} | {label[proxy]} | n/a | n/a | n/a | n/a | |")
            continue
        ratio = ""
        if base and proxy != "haproxy":
            r = int(kv["rss_kb"]) / int(base)
            ratio = f"{r:.2f}×"
            if proxy == "faultline":
                worst = max(worst or (0, ""), (r, scenario))
        lines.append(f"| {scenario} | {label[proxy]} | {mib(kv.get('idle_kb', 0))} | {mib(kv['rss_kb'])} | "
                     f"{mib(kv.get('anon_kb', 0))} | {mib(kv.get('file_kb', 0))} | {ratio} |")
if worst:
    verdict = "met" if worst[0] <= 1.3 else "**missed**"
    lines += ["", f"Target: Faultline's peak ≤ 1.3× HAProxy's in every scenario: {verdict} "
                  f"(highest {worst[0]:.2f}×, in {worst[1]})."]
lines.append(f"\nLoad average at the end: {' '.join(open('/proc/loadavg').read().split()[0:3])}")
write_report("\n".join(lines) + "\n", out)
PY
