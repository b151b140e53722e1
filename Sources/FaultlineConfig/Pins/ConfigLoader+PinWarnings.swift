import Foundation
import FaultlineTLS

extension ConfigLoader {
    /// How many days ahead an approaching expiry is announced.
    static let pinExpiryWarningDays = 30

    /// Load-time pin warnings that need no certificate: a set without a backup, and a set
    /// expiring soon or already expired. (Chain-dependent ones come from the TLS layer.)
    static func warnAboutPins(
        _ policy: PinPolicy, expiresText: String?, _ object: FieldReader, _ context: inout LoadContext
    ) {
        if policy.live.count == 1 {
            context.warn(
                object.path("sha256"),
                "a single pin has no backup: if the key is lost or rotated the app cannot connect")
        }
        if policy.candidate.count == 1 {
            context.warn(
                object.path("candidate"),
                "a single candidate pin has no backup: once this set ships, losing or rotating that key "
                    + "leaves the app unable to connect")
        }
        guard let expires = policy.expires, let expiresText else { return }
        let path = object.path("expires")
        if policy.isExpired(at: context.now) {
            let behaviour = policy.onExpiry == .unpinned
                ? "pins are no longer checked (on_expiry \"unpinned\"), as an app shipping this set behaves"
                : "pins are still checked (on_expiry \"enforce\")"
            context.warn(path, "the pin set expired on \(expiresText); \(behaviour)")
            return
        }
        let seconds = expires.timeIntervalSince(context.now)
        guard seconds <= Double(pinExpiryWarningDays) * 86_400 else { return }
        let days = Int((seconds / 86_400).rounded(.down))
        let when = days == 0 ? "in less than a day" : days == 1 ? "in 1 day" : "in \(days) days"
        let after = policy.onExpiry == .unpinned ? "pins stop being checked" : "the expired pins are still checked"
        context.warn(path, "the pin set expires on \(expiresText), \(when); after that \(after). Ship the next pin set before then")
    }
}
