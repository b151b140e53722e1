"""Reading the results files of bench/faults.sh, bench/sessions.sh and bench/logging.sh.

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
        return statistics.median(int(r["cpu_us"]) / max(int(r["requests"]), 1) for r in g)
    if key == "errors":
        return max(sum(int(r[k]) for k in ERROR_KEYS) for r in g)
    return statistics.median(float(r[key]) for r in g)
