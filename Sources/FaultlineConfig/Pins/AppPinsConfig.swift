import FaultlineTLS

/// An upstream's pins taken from an app configuration instead of listed: the app whose
/// rules are enforced, what a failure does, and optionally the next app release's file,
/// evaluated in shadow.
public struct AppPinsConfig: Sendable, Equatable {
    /// What a FAIL does: `enforce` refuses (502, nothing forwarded), `report` forwards and
    /// reports, `off` skips the check.
    public let mode: PinMode
    /// The app configuration enforced.
    public let live: AppPinReference
    /// Another app configuration checked on every handshake without ever blocking.
    public let candidate: AppPinReference?

    /// Creates the configuration.
    public init(mode: PinMode = .enforce, live: AppPinReference, candidate: AppPinReference? = nil) {
        self.mode = mode
        self.live = live
        self.candidate = candidate
    }
}
