"""Reading the results files of bench/faults.sh, bench/sessions.sh, bench/dashboard.sh,
bench/json-match.sh and bench/logging.sh, and rendering their overhead tables; and reading
bench/run.sh's raw results for bench/scaling.sh and bench/memory.sh.

Each line is `NAME<TAB>key=value ...` (wrk's BENCH fields from stats.lua plus cpu_us), or
`NAME<TAB>status=error` for a failed measurement. Imported by the scripts' report steps
(run with PYTHONPATH=bench).
"""
import statistics

ERROR_KEYS = ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")


def load_runs(path):
    """The measurements by config name, each a dict of its key=value fields."""
    runs = {}
    for line in open(path):
        name, _, fields = line.rstrip("\n").partition("\t")
        runs.setdefault(name, []).append(dict(item.partition("=")[::2] for item in fields.split()))
    return runs


def load_scenario_runs(path):
    """bench/run.sh's raw results (`PROXY<TAB>SCENARIO<TAB>key=value ...`): the measurements
    by (proxy, scenario), each a dict of its fields; the RSS line is scenario "rss"."""
    runs = {}
    for line in open(path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 3:
            runs.setdefault((parts[0], parts[1]), []).append(dict(item.partition("=")[::2] for item in parts[2].split()))
    return runs


def per_request(run, field):
    """One measurement's `field` divided by its requests (a measurement of none counts one)."""
    return int(run[field]) / max(1, int(run["requests"]))


def good(runs, name):
    """The measurements of `name` that completed."""
    return [r for r in runs.get(name, []) if "status" not in r]


def median(runs, name, key):
    """Median over the completed measurements of `name`: "rps" (requests per second), "cpu"
    (CPU microseconds per request), "errors" (the worst round's wrk errors), or any numeric
    field; None when no measurement completed."""
    g = good(runs, name)
    if not g:
        return None
    if key == "rps":
        return statistics.median(int(r["requests"]) / (int(r["duration_us"]) / 1e6) for r in g)
    if key == "cpu":
        return statistics.median(per_request(r, "cpu_us") for r in g)
    if key == "errors":
        return max(sum(int(r[k]) for k in ERROR_KEYS) for r in g)
    return statistics.median(float(r[key]) for r in g)


def overhead_table(runs, title, rows, footer):
    """The Markdown overhead table of bench/faults.sh, bench/sessions.sh and
    bench/dashboard.sh: one row per (name, label, target, base) where `base` names the row
    whose requests per second the ratio divides by (None: the row is a baseline, shown as
    1.00) and `target` is the least ratio that meets the goal (None: no goal)."""
    lines = [title, "",
             "| config | req/s | CPU µs/req | p50 ms | p99 ms | errors | ratio | target | met |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for name, label, target, base in rows:
        rps = median(runs, name, "rps")
        goal = "" if target is None else f"≥ {target:.2f}"
        if rps is None:
            lines.append(f"| {label} | error | | | | | | {goal} | n/a |")
            continue
        if base is None:
            ratio_text, met = "1.00", ""
        else:
            base_rps = median(runs, base, "rps")
            ratio = rps / base_rps if base_rps else None
            ratio_text = "n/a" if ratio is None else f"{ratio:.3f} of {base}"
            met = "" if target is None else ("n/a" if ratio is None else ("met" if ratio >= target else "**missed**"))
        lines.append(f"| {label} | {rps:,.0f} | {median(runs, name, 'cpu'):.1f} | "
                     f"{median(runs, name, 'p50_us') / 1000:.2f} | {median(runs, name, 'p99_us') / 1000:.2f} | "
                     f"{median(runs, name, 'errors')} | {ratio_text} | {goal} | {met} |")
    return "\n".join(lines + ["", footer]) + "\n"


def write_report(text, out):
    """Writes the table to `out` and prints it."""
    with open(out, "w") as f:
        f.write(text)
    print(text, end="")
