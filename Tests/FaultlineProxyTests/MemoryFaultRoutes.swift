/// The routes the in-memory host tests share: one per fault kind (`/<name>/…`) to the
/// in-memory origin, a refused upstream (`/down/`) and a plain route (`/plain/`).
enum MemoryFaultRoutes {
    /// Every fault kind, some in two forms (before and after response bytes, close or reset).
    static let faults: [(name: String, fault: String)] = [
        ("st503", #"{"status": {"code": 503, "headers": {"Retry-After": "5"}, "body": "down", "content_type": "text/html"}}"#),
        ("st204", #"{"status": 204}"#),
        ("reset", #"{"reset": {}}"#),
        ("reset1k", #"{"reset": {"after_bytes": 1000}}"#),
        ("close", #"{"close": {}}"#),
        ("close1k", #"{"close": {"after_bytes": 1000}}"#),
        ("truncate", #"{"truncate": {"keep_bytes": 100}}"#),
        ("hangclose", #"{"hang": {"ms": 50, "then": "close"}}"#),
        ("hangreset", #"{"hang": {"ms": 50, "then": "reset"}}"#),
        ("delay", #"{"delay": 20}"#),
        ("throttle", #"{"throttle": {"down_bytes_per_second": 200000}}"#),
        ("rewrite", #"{"rewrite": {"status": 418, "add_headers": {"X-Rewritten": "yes"}}}"#),
        ("garbage", #"{"corrupt": {"mode": "garbage_then_close"}}"#),
        ("chunked", #"{"corrupt": {"mode": "bad_chunk_framing"}}"#),
        ("json", #"{"corrupt": {"mode": "malformed_json"}}"#),
        ("rst", #"{"rst_stream": {}}"#),
        ("goaway", #"{"goaway": {"mode": "immediate"}}"#),
        ("graceful", #"{"goaway": {"mode": "graceful"}}"#),
        ("delay200", #"{"delay": 200}"#),
        ("slow3g", #"{"profile": "3g"}"#),
        ("lost", #"{"profile": "100-loss"}"#),
    ]

    /// The config: `origin` is `MemoryHarness.originAddress`; `upstreamOptions` are added to
    /// its object (`"protocol": "h2c"`, pool limits).
    static func config(upstreamOptions: String = "") -> String {
        let routes = faults.map { #"{"name": "\#($0.name)", "match": {"path_prefix": "/\#($0.name)/"}, "upstream": "origin", "faults": [\#($0.fault)]}"# }
        return #"""
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"origin": {"url": "http://127.0.0.1:8080"\#(upstreamOptions.isEmpty ? "" : ", " + upstreamOptions)},
                       "nowhere": {"url": "http://127.0.0.1:1"}},
         "routes": [\#(routes.joined(separator: ",\n")),
                    {"name": "down", "match": {"path_prefix": "/down/"}, "upstream": "nowhere"},
                    {"name": "plain", "match": {"path_prefix": "/"}, "upstream": "origin"}],
         "log": {"off": true}}
        """#
    }
}
