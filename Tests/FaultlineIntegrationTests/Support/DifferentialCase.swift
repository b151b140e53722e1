import Testing

/// A case of the differential framing test: client sequences run against one fresh proxy and
/// recording origin, either one after another (so a victim follows an attacker onto the
/// same pooled upstream connection) or several at once sharing the upstream pool.
struct DifferentialCase: Sendable, CustomTestStringConvertible {
    let name: String
    var sequences: [DifferentialSequence]
    /// How many sequences run at once (1 = strictly one after another).
    var concurrency = 1
    /// Event loops of the proxy (1 makes pool reuse deterministic).
    var workers = 1
    /// The defect this case reproduces, for the report.
    var defect: String?

    var testDescription: String { name }
}
