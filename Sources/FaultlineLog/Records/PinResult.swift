/// What a record says about an upstream's certificate pins (`faultline.pin.result`). The raw
/// value is the logged word, so records read the same whatever produced them.
public enum PinResult: String, Sendable, CaseIterable {
    /// The verified chain matched a configured pin.
    case match
    /// No configured pin matched and enforce mode refused the chain: nothing was forwarded.
    case mismatch
    /// No configured pin matched; report mode forwarded the exchange anyway.
    case report
    /// The upstream has pins configured with mode off: nothing was checked.
    case off
    /// Not a verdict on a handshake: a warning about the pin set itself (expiry, backups).
    case warning
}
