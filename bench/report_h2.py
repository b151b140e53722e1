"""The HTTP/2 rows and targets of bench/report.py (scenarios h2 and h2_large, bench/h2.sh)."""

# label, scenario, metric, higher_is_better, ratio reference (as report.py's rows)
THROUGHPUT_ROWS = [
    ("(8) h2 TLS listener, GET /64, 10 conns × 10 streams — req/s", "h2", "rps", True, "best"),
    ("(9) h2 TLS listener, GET /1m, 4 conns × 2 streams — req/s", "h2_large", "rps", True, "best"),
    ("(9) h2 TLS listener, GET /1m, 4 conns × 2 streams — MB/s", "h2_large", "mbps", True, "best"),
]
CPU_ROWS = [
    ("(8) CPU per request, h2 (µs)", "h2", "cpu", False, "nginx"),
    ("(9) CPU per 1 MiB response, h2 (µs)", "h2_large", "cpu", False, "best"),
]
NOTE = ("h2: (8) and (9) load each proxy's third listener (TLS, ALPN h2; HTTP/1.1 to the same "
        "origin) with h2load; a proxy that does not negotiate h2 there is not measured (its cells read "
        "\"h2 not negotiated\").")
# What a cell says when the proxy did not negotiate h2 on its h2 listener.
FLAG_TEXT = {"no-h2": "h2 not negotiated"}


def at_most(label, fl, peer_value, verdict, rounds_text=lambda: "", missing=None):
    """The line of a target met when Faultline's figure (µs) is at most a peer's; `missing`
    says why it is n/a, when it is, and `rounds_text()` adds the per-round comparison."""
    if missing:
        return f"- {label}: n/a ({missing})"
    if fl is None or peer_value is None:
        return f"- {label}: n/a (not measured)"
    return (f"- {label}: {verdict(fl <= peer_value)} ({fl / peer_value:.2f}×: {fl:.1f} µs vs {peer_value:.1f} µs"
            f"{rounds_text()})")


def targets(values, data, is_selected, label_of, fmt, verdict, rounds=lambda *key: ""):
    """Lines for the targets list: (8) req/s and CPU, and (9) against the h1 1 MiB figure; plus
    each proxy's h2 ÷ h1 ratio for 1 MiB responses, for context (memory is report.py's, one
    target for every scenario).
    `rounds(scenario, metric, peer, higher_is_better)` adds the per-round comparison."""
    out = []

    def not_negotiated(scenario):
        flags = data.get("faultline", {}).get(scenario, {}).get("flags", set())
        return "no-h2" in flags

    def value(scenario, kind, proxy):
        return values.get((scenario, kind), {}).get(proxy)

    label = "(8) h2 req/s ≥ 1.0× the better of nginx and HAProxy"
    if not is_selected("h2"):
        out.append(f"- {label}: n/a (scenario not selected)")
    elif not_negotiated("h2"):
        out.append(f"- {label}: n/a (Faultline: h2 not negotiated)")
    else:
        fl = value("h2", "rps", "faultline")
        peers = {p: value("h2", "rps", p) for p in ("nginx", "haproxy") if value("h2", "rps", p)}
        if fl is None or not peers:
            out.append(f"- {label}: n/a (not measured)")
        else:
            best = max(peers, key=peers.get)
            out.append(f"- {label}: {verdict(fl >= peers[best])} ({fl / peers[best]:.2f}× {label_of[best]}: "
                       f"{fmt(fl, 'rps')} vs {fmt(peers[best], 'rps')}{rounds('h2', 'rps', best, True)})")
    missing = ("scenario not selected" if not is_selected("h2")
               else "Faultline: h2 not negotiated" if not_negotiated("h2") else None)
    out.append(at_most("(8) h2 CPU per request ≤ nginx's", value("h2", "cpu", "faultline"), value("h2", "cpu", "nginx"),
                       verdict, lambda: rounds("h2", "cpu", "nginx", False), missing))
    label = "(9) h2 GET /1m req/s within 10 % of Faultline's h1 figure (3)"
    if not (is_selected("h2_large") and is_selected("large")):
        out.append(f"- {label}: n/a (needs both h2_large and large)")
    elif not_negotiated("h2_large"):
        out.append(f"- {label}: n/a (Faultline: h2 not negotiated)")
    else:
        h2, h1 = value("h2_large", "rps", "faultline"), value("large", "rps", "faultline")
        if h2 is None or not h1:
            out.append(f"- {label}: n/a (not measured)")
        else:
            out.append(f"- {label}: {verdict(h2 >= 0.9 * h1)} ({h2 / h1:.2f}×: {fmt(h2, 'rps')} vs {fmt(h1, 'rps')})")
    if is_selected("h2_large") and is_selected("large"):
        ratios = []
        for p in ("faultline", "nginx", "haproxy"):
            h2, h1 = value("h2_large", "rps", p), value("large", "rps", p)
            if h2 is not None and h1:
                ratios.append(f"{label_of[p]} {h2 / h1:.2f}×")
        if ratios:
            out.append("- for reference, h2 ÷ h1 for 1 MiB responses (9 ÷ 3; (9) is over TLS, (3) is not): "
                       + ", ".join(ratios))
    return out
