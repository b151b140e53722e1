#!/usr/bin/env python3
"""Turns bench/run.sh's raw results into the Markdown report.

usage: report.py RESULTS.tsv META.txt OUT.md

RESULTS.tsv lines: proxy <TAB> scenario <TAB> key=value key=value ...
  (keys from bench/stats.lua, or status=error|died, or rss_kb=N for scenario "rss")
META.txt lines: key=value

When the run had a second Faultline binary ("faultline-before", from FAULTLINE_BEFORE_BIN),
the table gets a column for each Faultline and, per row, before ÷ nginx, after ÷ nginx and
after ÷ before; a "Before and after" section follows the targets.
"""
import sys

sys.dont_write_bytecode = True  # report_h2 sits in bench/: no __pycache__ there
import report_h2  # noqa: E402
from bench_stats import per_request  # noqa: E402

PROXIES = ["faultline-before", "faultline", "nginx", "haproxy"]
LABEL = {"faultline": "Faultline", "faultline-before": "Faultline before",
         "nginx": "nginx", "haproxy": "HAProxy"}
# The issue-level question of a before/after run: the scenarios a change must not slow down.
BEFORE_AFTER_ROWS = [("keepalive", "rps"), ("large", "rps"), ("close", "rps"),
                     ("keepalive", "cpu"), ("large", "cpu"), ("close", "cpu")]
# Single short runs differ by about this much on a shared machine (docs/bench.md).
NOISE = 0.05


def load(path):
    """Returns {proxy: {scenario: {"runs": [dict, ...], "flags": set(), ...}}}."""
    data = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                continue
            proxy, scenario, fields = parts
            kv = {}
            for item in fields.split():
                k, _, v = item.partition("=")
                kv[k] = v
            cell = data.setdefault(proxy, {}).setdefault(scenario, {"runs": [], "flags": set()})
            if "status" in kv:
                cell["flags"].add(kv["status"])      # error | died
            elif "requests" in kv:
                cell["runs"].append(kv)
            else:
                cell.update(kv)                      # rss_kb
    return data


def load_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            meta[k] = v
    return meta


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def one(run, name):
    secs = int(run["duration_us"]) / 1e6
    if name == "rps":
        return int(run["requests"]) / secs
    if name == "mbps":
        return int(run["bytes"]) / secs / 1e6
    if name in ("p50", "p99"):
        return float(run[name + "_us"])
    if name == "cpu":
        # CPU microseconds the proxy spent per request: less sensitive to a noisy, shared
        # machine than throughput, since it does not depend on who else got the cores.
        return per_request(run, "cpu_us")
    if name in SIDE_FIELDS:
        # What the proxy made the rest of the machine spend per request (bench/lib.sh
        # counters_start and counters_stop): the load generator's and the origin's CPU, the
        # loopback packets and the TCP connections opened.
        return per_request(run, SIDE_FIELDS[name])
    raise KeyError(name)


SIDE_FIELDS = {"client": "client_cpu_us", "origin": "origin_cpu_us", "packets": "lo_packets", "opens": "tcp_opens"}
SIDE_SCENARIOS = [("keep-alive", "keepalive"), ("new connection", "close"), ("upstream TLS", "tls_upstream"),
                  ("TLS listener", "tls_listener"), ("h2", "h2")]


def side_table(data, columns, ran, is_selected):
    """Per scenario and proxy: client CPU / origin CPU (µs) and loopback packets per request, and
    TCP connections opened per 1,000 requests, medians over the rounds; empty when the results
    predate those fields (the connections alone are left out of results that predate them)."""
    rows = []
    for label, scenario in SIDE_SCENARIOS:
        if not is_selected(scenario):
            continue
        cells = []
        for p in columns:
            runs = [r for r in data.get(p, {}).get(scenario, {"runs": []})["runs"] if "lo_packets" in r]
            if p not in ran or not runs:
                cells.append("—")
                continue
            client, origin, packets = (median([one(r, k) for r in runs]) for k in ("client", "origin", "packets"))
            cell = f"{client:.1f} / {origin:.1f} / {packets:.2f}"
            if all("tcp_opens" in r for r in runs):
                cell += f" / {median([one(r, 'opens') for r in runs]) * 1000:.1f}"
            cells.append(cell)
        if any(c != "—" for c in cells):
            rows.append(f"| {label} | " + " | ".join(cells) + " |")
    if not rows:
        return []
    return ["What each proxy made the rest of the machine spend per request: the load generator's CPU "
            "(µs) / the origin's CPU (µs) / loopback packets / TCP connections opened per 1,000 requests "
            "(the client's and the proxy's to the origin: 1,000 is the close scenario's own, anything above "
            "that is a proxy opening upstream connections). In the split layout the load generator and the "
            "origin share CPU 0, so these decide how many requests per second CPU 0 can carry.",
            "",
            "| scenario | " + " | ".join(LABEL[p] for p in columns) + " |",
            "|---|" + "---:|" * len(columns)] + rows + [""]


def metric(cell, name):
    """Returns (median over rounds, None) for one metric, or (None, reason)."""
    if not cell or not cell["runs"]:
        if cell and cell["flags"]:
            return None, "/".join(report_h2.FLAG_TEXT.get(f, f) for f in sorted(cell["flags"]))
        return None, "—"
    return median([one(r, name) for r in cell["runs"]]), None


def per_round(cell, name):
    """Returns {round: value} for the runs that recorded their round."""
    return {int(r["round"]): one(r, name) for r in cell.get("runs", []) if "round" in r}


def round_ratios(data, proxy, other, scenario, kind):
    """`proxy` ÷ `other` for each round both recorded, in round order (each round measures the
    proxies back to back, so a round's ratio is the fairest comparison a run holds)."""
    ours = per_round(data.get(proxy, {}).get(scenario, {}), kind)
    theirs = per_round(data.get(other, {}).get(scenario, {}), kind)
    return [ours[i] / theirs[i] for i in sorted(set(ours) & set(theirs)) if theirs[i]]


def paired_rounds(data, scenario, kind, peer, higher_is_better):
    """Faultline ÷ `peer` round by round, and in how many rounds Faultline was level or ahead:
    whether a verdict on the medians is a steady lead, a steady gap, or a coin toss between
    rounds. Empty with fewer than two rounds."""
    ratios = round_ratios(data, "faultline", peer, scenario, kind)
    if len(ratios) < 2:
        return ""
    ahead = sum(1 for r in ratios if (r >= 1 if higher_is_better else r <= 1))
    return (f"; per round {', '.join(f'{r:.2f}×' for r in ratios)}: level or ahead in "
            f"{ahead} of {len(ratios)}")


def ratio_text(a, b):
    return f"{a / b:.2f}×" if a is not None and b else "—"


def errors(cell):
    keys = ["connect_errors", "read_errors", "write_errors", "status_errors", "timeouts"]
    found = {}
    for run in cell.get("runs", []):
        for k in keys:
            n = int(run.get(k, 0))
            if n > 0:
                found[k] = found.get(k, 0) + n
    return found


def fmt(value, kind):
    if value is None:
        return None
    if kind in ("rps",):
        return f"{value:,.0f}"
    if kind in ("mbps",):
        return f"{value:,.1f}"
    if kind in ("p50", "p99", "cpu"):
        return f"{value:,.1f}"
    if kind == "rss":
        return f"{value / 1024:,.1f}"
    return str(value)


def main():
    results, meta_path, out_path = sys.argv[1:4]
    data = load(results)
    meta = load_meta(meta_path)
    ran = meta.get("proxies", "").split()
    # Before/after mode: both Faultline binaries ran.
    paired = "faultline-before" in ran
    columns = [p for p in PROXIES if p != "faultline-before" or paired]
    if paired:
        LABEL["faultline"] = "Faultline after"
    # Scenarios left out with BENCH_SCENARIOS get no row (older META files: all).
    selected = set(meta["scenarios"].split()) if "scenarios" in meta else None

    def is_selected(scenario):
        return selected is None or scenario == "rss" or scenario in selected

    rows = [
        # label, scenario, metric, higher_is_better, ratio reference
        ("(1) keep-alive GET /64, 50 conns — req/s", "keepalive", "rps", True, "best"),
        ("(2) one connection GET /64 — p50 latency (µs)", "latency", "p50", False, "nginx"),
        ("(2) one connection GET /64 — p99 latency (µs)", "latency", "p99", False, "nginx"),
        ("(3) GET /1m, 8 conns — req/s", "large", "rps", True, "best"),
        ("(3) GET /1m, 8 conns — MB/s", "large", "mbps", True, "best"),
        ("(4) new connection per request, 50 conns — req/s", "close", "rps", True, "best"),
        ("(5) upstream TLS with pins, keep-alive GET /tls/64, 50 conns — req/s",
         "tls_upstream", "rps", True, "best"),
        ("(6) TLS listener, keep-alive GET /64, 50 conns — req/s", "tls_listener", "rps", True, "best"),
        ("(7) TLS listener, new connection (full handshake) per request, 50 conns — req/s",
         "tls_close", "rps", True, "best"),
        *report_h2.THROUGHPUT_ROWS,
        ("(1) CPU per request, keep-alive (µs)", "keepalive", "cpu", False, "best"),
        ("(3) CPU per 1 MiB response (µs)", "large", "cpu", False, "best"),
        ("(4) CPU per request, new connections (µs)", "close", "cpu", False, "best"),
        ("(5) CPU per request, upstream TLS with pins (µs)", "tls_upstream", "cpu", False, "best"),
        ("(6) CPU per request, TLS listener (µs)", "tls_listener", "cpu", False, "best"),
        ("(7) CPU per request, TLS handshake per request (µs)", "tls_close", "cpu", False, "best"),
        *report_h2.CPU_ROWS,
        ("peak RSS, all processes (MiB)", "rss", "rss", False, "haproxy"),
    ]

    footnotes = []
    noted = set()
    values = {}  # (scenario, metric) -> {proxy: value}
    lines = []
    if paired:
        lines.append("| scenario | Faultline before | Faultline after | nginx | HAProxy "
                     "| before ÷ nginx | after ÷ nginx | after ÷ before |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    else:
        lines.append("| scenario | Faultline | nginx | HAProxy | Faultline ÷ reference |")
        lines.append("|---|---:|---:|---:|---:|")
    for label, scenario, kind, higher, ref in rows:
        if not is_selected(scenario):
            continue
        cells = []
        vals = {}
        for p in columns:
            if p not in ran:
                cells.append("—")
                continue
            cell = data.get(p, {}).get(scenario, {"runs": [], "flags": set()})
            if kind == "rss":
                v = int(cell["rss_kb"]) if "rss_kb" in cell else None
                note = None if v is not None else "n/a"
            else:
                v, note = metric(cell, kind)
            if v is None:
                cells.append(note or "—")
                continue
            vals[p] = v
            text = fmt(v, kind)
            marks = ""
            first = (p, scenario) not in noted
            noted.add((p, scenario))
            errs = errors(cell) if kind != "rss" and first else {}
            if errs:
                footnotes.append(f"{LABEL[p]}, {label}: wrk reported "
                                 + ", ".join(f"{k.replace('_', ' ')} {n:,}" for k, n in errs.items()))
                marks += f" [{len(footnotes)}]"
            if cell.get("flags") and first:
                what = {"died": "the proxy died", "error": "wrk failed"}
                footnotes.append(f"{LABEL[p]}, {label}: in some round "
                                 + " and ".join(what.get(f, f) for f in sorted(cell["flags"]))
                                 + "; the value is the median of the rounds that completed")
                marks += f" [{len(footnotes)}]"
            cells.append(text + marks)
        values[(scenario, kind)] = vals
        if paired:
            before, after, ng = vals.get("faultline-before"), vals.get("faultline"), vals.get("nginx")
            lines.append(f"| {label} | " + " | ".join(cells) + " | "
                         + " | ".join([ratio_text(before, ng), ratio_text(after, ng),
                                       ratio_text(after, before)]) + " |")
            continue

        ratio = "—"
        fl = vals.get("faultline")
        if fl is not None:
            if ref == "best":
                named = {p: vals[p] for p in ("nginx", "haproxy") if p in vals}
                pick = max if higher else min
                best = pick(named, key=named.get) if named else None
                peer = named.get(best)
                ref_name = LABEL[best] if best else ""
            else:
                peer = vals.get(ref)
                ref_name = LABEL[ref]
            if peer:
                ratio = f"{fl / peer:.2f}× {ref_name}"
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {ratio} |")

    # Targets
    targets = []

    def best_peer(key):
        v = values.get(key, {})
        peers = {p: v[p] for p in ("nginx", "haproxy") if p in v}
        if not peers:
            return None, None
        name = max(peers, key=peers.get)
        return name, peers[name]

    def verdict(ok):
        return "**met**" if ok else "**missed**"

    for label, key in [("(1) keep-alive req/s ≥ 1.0× the better of nginx and HAProxy", ("keepalive", "rps")),
                       ("(3) GET /1m req/s ≥ 1.0× the better of nginx and HAProxy", ("large", "rps")),
                       ("(4) new-connection req/s ≥ 1.0× the better of nginx and HAProxy", ("close", "rps")),
                       ("(5) upstream TLS with pins: req/s ≥ 1.0× the better peer", ("tls_upstream", "rps")),
                       ("(6) TLS listener: req/s ≥ 1.0× the better peer", ("tls_listener", "rps"))]:
        if not is_selected(key[0]):
            targets.append(f"- {label}: n/a (scenario not selected)")
            continue
        fl = values.get(key, {}).get("faultline")
        name, peer = best_peer(key)
        if fl is None or peer is None:
            targets.append(f"- {label}: n/a (not measured)")
        else:
            targets.append(f"- {label}: {verdict(fl >= peer)} "
                           f"({fl / peer:.2f}× {LABEL[name]}: {fmt(fl, 'rps')} vs {fmt(peer, 'rps')}"
                           f"{paired_rounds(data, key[0], key[1], name, True)})")
    for label, key, peer in [("(1) keep-alive CPU per request ≤ HAProxy's", ("keepalive", "cpu"), "haproxy"),
                             ("(5) upstream TLS CPU per request ≤ nginx's", ("tls_upstream", "cpu"), "nginx"),
                             ("(2) p50 latency ≤ nginx's", ("latency", "p50"), "nginx")]:
        targets.append(report_h2.at_most(
            label, values.get(key, {}).get("faultline"), values.get(key, {}).get(peer), verdict,
            lambda key=key, peer=peer: paired_rounds(data, key[0], key[1], peer, False),
            None if is_selected(key[0]) else "scenario not selected"))
    fl = values.get(("rss", "rss"), {}).get("faultline")
    hp = values.get(("rss", "rss"), {}).get("haproxy")
    label = "peak RSS ≤ 1.3× HAProxy's"
    if fl is None or hp is None:
        targets.append(f"- {label}: n/a (not measured)")
    else:
        targets.append(f"- {label}: {verdict(fl <= 1.3 * hp)} "
                       f"({fl / hp:.2f}×: {fl / 1024:.1f} MiB vs {hp / 1024:.1f} MiB)")

    targets += report_h2.targets(values, data, is_selected, LABEL, fmt, verdict,
                                 lambda *key: paired_rounds(data, *key))

    comparison = []
    if paired:
        comparison = before_after(data, values, is_selected, meta)

    out = []
    out.append("# Faultline benchmark")
    out.append("")
    out.append(f"{meta.get('date', '')} · {meta.get('host', '')} · "
               f"{meta.get('seconds', '?')} s per measurement after {meta.get('warmup', '?')} s warm-up"
               + (f", median of {meta['rounds']} rounds" if meta.get("rounds", "1") != "1" else "")
               + " · "
               f"wrk {meta.get('wrk', '?')}"
               + (f" · h2load {meta['h2load']}" if "h2load" in meta else "")
               + f" · nginx {meta.get('nginx', '?')}"
               + (f" · HAProxy {meta['haproxy']}" if "haproxy" in meta else "")
               + (f" · Faultline {meta['faultline']}" if "faultline" in meta else "")
               + (f" · Faultline before {meta['faultline_before']}"
                  if "faultline_before" in meta else ""))
    out.append("")
    out.append(layout_text(meta) + " Upstream keep-alive, no access log, "
               "same nginx origin (1 worker) on loopback. See docs/bench.md.")
    if "tls_key" in meta:
        out.append("")
        out.append(f"TLS: {'ECDSA P-256' if meta['tls_key'] == 'ec' else 'RSA 2048'} certificates "
                   "from a CA minted for the run; (5) verifies the origin's chain and host name "
                   "(Faultline also enforces two SPKI pins, leaf and CA), upstream TLS "
                   "connections kept alive; wrk does not verify the listener's certificate "
                   "and does not resume sessions.")
    if "h2load" in meta:
        out.append("")
        out.append(report_h2.NOTE)
    out.append("")
    out.extend(lines)
    out.append("")
    if footnotes:
        for i, n in enumerate(footnotes, 1):
            out.append(f"[{i}] {n}  ")
        out.append("")
    out.extend(side_table(data, columns, ran, is_selected))
    out.append("Targets (Faultline after):" if paired else "Targets:")
    out.append("")
    out.extend(targets)
    out.append("")
    out.extend(steal_text(data, meta))
    out.extend(comparison)
    text = "\n".join(out)
    print(text)
    with open(out_path, "w") as f:
        f.write(text)


def steal_text(data, meta):
    """A paragraph on the time the hypervisor gave other guests during the measurements
    (run.sh measures again one that lost more than BENCH_MAX_STEAL), or nothing when the
    results predate the count."""
    kept = [(int(run["stolen_permille"]), proxy, scenario, run.get("round", "?"))
            for proxy, cells in data.items() for scenario, cell in cells.items()
            for run in cell["runs"] if "stolen_permille" in run]
    if not kept:
        return []
    worst, proxy, scenario, round_ = max(kept)
    limit = meta.get("max_steal", "?")
    text = (f"Hypervisor steal (/proc/stat): a measurement that lost more than {limit} % of the "
            f"machine to other guests was measured again, at most "
            f"{meta.get('steal_retries', '?')} times; {meta.get('steal_repeats', '?')} of "
            f"{len(kept) + int(meta.get('steal_repeats', '0') or 0)} were thrown away. ")
    if limit.isdigit() and worst > int(limit) * 10:
        shown_round = int(round_) + 1 if round_.isdigit() else round_
        text += (f"Kept above the limit, as every retry lost as much: {worst / 10:.1f} % "
                 f"({LABEL.get(proxy, proxy)}, {scenario}, round {shown_round}); that row is less reliable.")
    else:
        text += f"The most any kept measurement lost: {worst / 10:.1f} %."
    return [text, ""]


def layout_text(meta):
    """The CPU layout sentence of the header (META files from before layouts: shared, 2)."""
    workers = meta.get("workers", "2")
    if meta.get("layout") == "split":
        return (f"Layout **split**: wrk (one thread) and the origin pinned to CPU 0, each proxy alone "
                f"on CPU 1 with {workers} worker/thread (taskset); for (2) the proxy is moved to "
                "CPU 0 too (one connection, all on one core).")
    return (f"Layout **shared**: every process free to use every core, {workers} workers/threads "
            "per proxy, wrk -t2.")


def verdict_of(median_ratio, rounds, higher_is_better):
    """Says whether after differs from before beyond noise. With several rounds the per-round
    ratios (before and after measured back to back) are the evidence: a difference counts only
    when every round shows it, and rounds that disagree by more than the noise band make the
    comparison inconclusive rather than "within noise"."""
    def side(r):
        if abs(r - 1) <= NOISE:
            return 0
        return 1 if (r > 1) == higher_is_better else -1

    word = {1: "better", -1: "worse"}
    if len(rounds) < 2:
        s = side(median_ratio)
        found = "within noise" if s == 0 else f"after {word[s]} by {abs(median_ratio - 1):.0%}"
        return found + "; one round only, rerun with BENCH_ROUNDS=4 to tell noise from change"
    sides = {side(r) for r in rounds}
    if len(sides) == 1 and 0 not in sides:
        s = sides.pop()
        return f"after {word[s]} by {abs(median_ratio - 1):.0%}, in every round"
    if side(median_ratio) == 0 and max(rounds) - min(rounds) <= 2 * NOISE:
        return "within noise"
    return (f"inconclusive: the rounds range {min(rounds):.2f}×–{max(rounds):.2f}×, a spread "
            f"beyond the ±{NOISE:.0%} band; rerun on a quieter machine or with more rounds")


def before_after(data, values, is_selected, meta):
    """The "Before and after" section: for the scenarios a change must not slow down, after ÷
    before (median, and per round when rounds were recorded) and both ratios against nginx."""
    names = {"rps": "req/s", "cpu": "CPU µs per request"}
    out = ["Before and after (same run, the two Faultlines measured back to back in every round, "
           "alternating which goes first; after = FAULTLINE_BIN, before = FAULTLINE_BEFORE_BIN; "
           "for req/s above 1.00× is faster, for CPU below 1.00× is cheaper; a difference counts "
           f"when it exceeds ±{NOISE:.0%} in every round):", ""]
    for scenario, kind in BEFORE_AFTER_ROWS:
        if not is_selected(scenario):
            continue
        vals = values.get((scenario, kind), {})
        before, after, ng = vals.get("faultline-before"), vals.get("faultline"), vals.get("nginx")
        head = f"- {scenario} {names[kind]}:"
        if before is None or after is None:
            out.append(f"{head} n/a (not measured for both)")
            continue
        r = after / before
        rounds = round_ratios(data, "faultline", "faultline-before", scenario, kind)
        text = (f"{head} after ÷ before {r:.2f}× ({verdict_of(r, rounds, kind == 'rps')}); "
                f"before ÷ nginx {ratio_text(before, ng)}, after ÷ nginx {ratio_text(after, ng)}")
        if len(rounds) > 1:
            text += "; per round " + ", ".join(f"{x:.2f}×" for x in rounds)
        out.append(text)
    if len(out) == 2:
        out.append("- none of keepalive, large and close was selected (BENCH_SCENARIOS); "
                   "the table above still compares every row")
    out.append("")
    if "loadavg_start" in meta:
        cores = meta.get("host", "").split(" cores")[0]
        out.append(f"Load average (1, 5, 15 min) at the start of the measurements "
                   f"{meta['loadavg_start']}, at the end {meta.get('loadavg_end', '?')}. wrk, "
                   "the proxy and the origin keep every core busy while they run, so a load "
                   + (f"well above {int(cores) + 1} on {cores} cores" if cores.isdigit()
                      else "well above the core count")
                   + " means other work shared the cores and the ratios are noisier.")
        out.append("")
    return out


if __name__ == "__main__":
    main()
