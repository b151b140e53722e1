/// The result of checking one host and chain against an app configuration.
public enum AppPinOutcome: String, Sendable, Hashable, CaseIterable {
    /// The app would connect: a pin matched, or pinning was bypassed on purpose.
    case pass
    /// The app would refuse the connection.
    case fail
    /// The app does not pin this host (no entry, or the entry expired).
    case notPinned = "not-pinned"
    /// The pins did not match but the entry only reports (TrustKit `TSKEnforcePinning`
    /// false): the app connects and sends a pin failure report. Counted as passing.
    case reportOnlyFailure = "report-only-failure"

    /// Whether the app would refuse the connection.
    public var blocks: Bool {
        self == .fail
    }

    /// `PASS`, `FAIL`, `NOT PINNED` or `PASS (report only)`, as a matrix cell shows it.
    public var label: String {
        switch self {
        case .pass: "PASS"
        case .fail: "FAIL"
        case .notPinned: "NOT PINNED"
        case .reportOnlyFailure: "PASS (report only)"
        }
    }
}
