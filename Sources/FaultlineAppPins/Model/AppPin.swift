public import FaultlineTLS

/// One pin of an app configuration: the SPKI SHA-256 value, the chain positions it may
/// match, and where it was written.
public struct AppPin: Sendable, Hashable {
    /// The pinned key's SPKI SHA-256.
    public let value: SPKIPinValue
    /// The certificates it may match.
    public let scope: AppPinScope
    /// The line in the configuration file, when known.
    public let line: Int?

    /// Creates a pin.
    public init(value: SPKIPinValue, scope: AppPinScope, line: Int? = nil) {
        self.value = value
        self.scope = scope
        self.line = line
    }
}
