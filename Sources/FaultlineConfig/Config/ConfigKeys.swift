/// The keys each object of the config format accepts, in the order they are checked and
/// listed in messages. The schema test compares these with `config/faultline.schema.json`.
enum ConfigKeys {
    static let topLevel = [
        "workers", "worker_affinity", "listeners", "admin", "demo_origin", "upstreams", "routes",
        "timeouts_ms", "limits", "seed", "fault_headers", "log", "har", "http2", "sessions", "journal", "scenarios", "$schema",
    ]
    static let listener = ["address", "tls", "h2c", "mode", "forward", "defer_accept"]
    static let forward = [
        "ca", "intercept", "pass_through", "clients", "credentials", "pass_through_after_refusals",
        "max_tunnels", "upstream_ca",
    ]
    static let forwardCA = ["certificate", "key"]
    static let forwardCredential = ["user", "password_env"]
    static let admin = ["address", "token", "token_env"]
    static let demoOrigin = ["address"]
    static let listenerTLS = ["certificate", "key", "alpn", "min_version", "sni", "drill"]
    static let sniCertificate = ["server_name", "certificate", "key", "drill"]
    static let drillCertificate = ["certificate", "key", "label"]
    static let upstream = [
        "url", "host_header", "timeouts_ms", "max_idle_connections",
        "server_name", "trust", "min_version", "verify_hostname", "pins", "protocol",
    ]
    /// The upstream keys that only an https upstream accepts.
    static let upstreamTLS = ["server_name", "trust", "min_version", "verify_hostname", "pins"]
    static let upstreamTrust = ["ca_file", "system"]
    static let pins = ["sha256", "mode", "candidate", "expires", "on_expiry", "app", "domain", "platform", "build"]
    /// `pins.candidate` when the pins name an app file.
    static let appPinCandidate = ["app", "domain", "platform", "build"]
    static let upstreamTimeouts = ["connect", "response", "idle", "tunnel_idle"]
    static let route = ["name", "match", "upstream", "faults"]
    static let routeMatch = ["host", "methods", "path", "path_prefix", "path_glob", "headers", "query", "cookies", "client", "json", "not"]
    static let clientTimeouts = ["client_header", "client_idle", "drain"]
    static let limits = [
        "max_request_line_bytes", "max_header_bytes", "max_header_count",
        "max_request_body_bytes", "max_connections", "max_match_body_bytes",
    ]
}
