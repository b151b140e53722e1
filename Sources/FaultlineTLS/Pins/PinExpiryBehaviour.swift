/// What happens once a pin set's `expires` date has passed.
public enum PinExpiryBehaviour: String, Sendable, Equatable, CaseIterable {
    /// Stop checking pins, as Android's network security config and TrustKit do.
    case unpinned
    /// Keep enforcing the expired pins.
    case enforce
}
