/// The keys the `log` section and its `redact` object accept, in the order they are
/// listed in messages. The schema test compares these with `config/faultline.schema.json`.
enum LogConfigKeys {
    static let log = [
        "format", "destination", "path", "headers", "bodies", "header_max_bytes", "body_max_bytes",
        "body_types", "tls_events", "pin_events", "fault_events", "redact", "off",
    ]
    static let redact = [
        "headers", "headers_keep", "header_substrings", "header_substrings_keep",
        "query", "query_keep", "body_fields", "body_fields_keep",
    ]
    /// Largest `header_max_bytes`.
    static let headerMaxBytes = 16...1_048_576
    /// Largest `body_max_bytes`.
    static let bodyMaxBytes = 0...16_777_216
}
