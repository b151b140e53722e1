public import FoundationEssentials

/// The pins of one upstream: checked after the chain is verified, they only narrow an
/// already trusted chain. A pin matches when any certificate of the verified chain has it.
public struct PinPolicy: Sendable, Equatable {
    /// The pin set in force (`pins.sha256`); a match on any one passes.
    public let live: [SPKIPinValue]
    /// What a mismatch does.
    public let mode: PinMode
    /// The next pin set, checked in shadow on every handshake and never blocking.
    public let candidate: [SPKIPinValue]
    /// When the live set expires, if ever.
    public let expires: Date?
    /// What happens after `expires`.
    public let onExpiry: PinExpiryBehaviour

    /// Creates a policy; the defaults are those of the config format.
    public init(
        live: [SPKIPinValue],
        mode: PinMode = .enforce,
        candidate: [SPKIPinValue] = [],
        expires: Date? = nil,
        onExpiry: PinExpiryBehaviour = .unpinned
    ) {
        self.live = live
        self.mode = mode
        self.candidate = candidate
        self.expires = expires
        self.onExpiry = onExpiry
    }

    /// Whether the live set has expired at `now`.
    public func isExpired(at now: Date) -> Bool {
        expires.map { now >= $0 } ?? false
    }

    /// The mode that applies at `now`: `.off` once expired with `onExpiry == .unpinned`.
    public func effectiveMode(at now: Date) -> PinMode {
        isExpired(at: now) && onExpiry == .unpinned ? .off : mode
    }
}
