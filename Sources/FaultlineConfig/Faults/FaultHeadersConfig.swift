/// Per-request fault control by request header (like Envoy's `x-envoy-fault-*`): off
/// unless enabled; the proxy strips both headers before forwarding.
public struct FaultHeadersConfig: Sendable, Equatable {
    /// Whether requests may ask for faults by header.
    public let enabled: Bool
    /// Lowercase name of the header asking for a delay in milliseconds.
    public let delayHeader: String
    /// Lowercase name of the header asking for a status code.
    public let statusHeader: String
    /// Whether responses that carry an injected fault say so in `X-Faultline-Fault`, so a
    /// client can tell an injected failure from a real one.
    public let markResponses: Bool

    /// Creates the setting; the defaults are off with the standard header names, and marked
    /// responses.
    public init(enabled: Bool = false, delayHeader: String = "x-faultline-delay-ms", statusHeader: String = "x-faultline-status",
                markResponses: Bool = true) {
        self.enabled = enabled
        self.delayHeader = delayHeader
        self.statusHeader = statusHeader
        self.markResponses = markResponses
    }
}
