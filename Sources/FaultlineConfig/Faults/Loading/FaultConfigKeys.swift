/// The keys each fault object of the config format accepts, in the order messages list
/// them; the schema test compares them with `config/faultline.schema.json`.
enum FaultConfigKeys {
    /// Keys beside the kind in a fault object.
    static let meta = ["name", "when", "enabled"]
    /// Every key of a fault object: one kind plus the meta keys.
    static let fault = FaultKind.keywords + meta
    static let when = ["probability", "first_n", "after_n", "every_nth", "sequence", "active_for_ms", "max_active"]
    static let delay = ["ms", "uniform", "lognormal", "phase"]
    static let uniform = ["min_ms", "max_ms"]
    static let lognormal = ["median_ms", "sigma", "max_ms"]
    static let status = ["code", "headers", "body", "body_file", "content_type", "upstream"]
    static let reset = ["after_bytes", "error_code"]
    static let rstStream = ["error_code"]
    static let goAway = ["mode", "error_code"]
    static let close = ["after_bytes"]
    static let hang = ["ms", "then"]
    static let throttle = ["down_bytes_per_second", "up_bytes_per_second", "chunk_bytes"]
    static let truncate = ["keep_bytes"]
    static let corrupt = ["mode"]
    static let rewrite = ["status", "add_headers", "remove_headers"]
    static let faultHeaders = ["enabled", "delay_header", "status_header", "mark_responses"]
}
