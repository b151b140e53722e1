/// What a pin mismatch does on an upstream connection.
public enum PinMode: String, Sendable, Equatable, CaseIterable {
    /// Nothing is forwarded; the client gets a 502 that says "pin mismatch".
    case enforce
    /// The request is forwarded and a pin failure report is logged.
    case report
    /// Pins are not checked (the chain is still verified).
    case off
}
