/// The keys each object of the config format accepts, in the order they are checked and
/// listed in messages. The schema test compares these with `config/faultline.schema.json`.
enum ConfigKeys {
    static let topLevel = [
        "workers", "listeners", "admin", "demo_origin", "upstreams", "routes",
        "timeouts_ms", "limits", "seed", "log", "$schema",
    ]
    static let listener = ["address", "tls"]
    static let admin = ["address", "token"]
    static let demoOrigin = ["address"]
    static let upstream = ["url", "host_header", "timeouts_ms", "max_idle_connections", "trust", "pins"]
    static let upstreamTimeouts = ["connect", "response", "idle"]
    static let route = ["name", "match", "upstream", "faults"]
    static let routeMatch = ["host", "methods", "path", "path_prefix", "path_glob"]
    static let clientTimeouts = ["client_header", "client_idle", "drain"]
    static let limits = [
        "max_request_line_bytes", "max_header_bytes", "max_header_count",
        "max_request_body_bytes", "max_connections",
    ]
}
