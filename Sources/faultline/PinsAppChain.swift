import FaultlineAppPins

/// One column of the `pins app` matrix: a chain with its label, where it came from and
/// how its verified path was obtained.
struct PinsAppChain {
    /// Where the chain came from.
    enum Kind: String {
        /// A PEM or DER file.
        case file
        /// A handshake with host:port.
        case live
        /// The last chain the running proxy verified for an upstream (`GET /pins`).
        case admin
    }

    let label: String
    /// The SOURCE of `--chain LABEL=SOURCE` (for admin chains, the admin URL and upstream).
    let source: String
    let kind: Kind
    /// The chain's own host (live: the host connected to; admin: the upstream's
    /// `server_name`); nil for files, which are checked on the apps' hosts.
    let host: String?
    /// How the verified path was obtained, e.g. `verified with --ca root.pem`.
    let trust: String
    let chain: AppChain

    /// What changed from `baseline`: `the candidate chain has a new leaf key (compared with
    /// current)`, nil when every key of this chain is in the baseline.
    func change(from baseline: PinsAppChain) -> String? {
        let known = Set(baseline.chain.verified.map(\.pin))
        var positions: [String] = []
        for certificate in chain.verified where !known.contains(certificate.pin) {
            let position = certificate.position.rawValue
            if !positions.contains(position) { positions.append(position) }
        }
        guard let last = positions.last else { return nil }
        let keys = positions.count == 1 ? "a new \(last) key" : "new \(positions.dropLast().joined(separator: ", ")) and \(last) keys"
        return "the \(label) chain has \(keys) (compared with \(baseline.label))"
    }
}
