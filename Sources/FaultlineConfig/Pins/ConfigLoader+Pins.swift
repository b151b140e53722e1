import Foundation
import FaultlineTLS

extension ConfigLoader {
    /// An upstream's `pins` object, with the warnings that need no certificate.
    static func readPins(
        _ object: FieldReader, _ context: inout LoadContext, _ diagnostics: inout Diagnostics
    ) -> PinPolicy? {
        let mode = object.choice("mode", default: PinMode.enforce, &diagnostics)
        let live = readPinList(object, "sha256", &diagnostics)
        let candidate = readPinList(object, "candidate", &diagnostics)
        var expires: Date?
        let expiresText = object.string("expires", expected: "an ISO 8601 date", &diagnostics)
        if let expiresText {
            expires = ISODate.parse(expiresText)
            if expires == nil {
                diagnostics.add(
                    object.path("expires"),
                    "expected an ISO 8601 date (\"2027-06-01\") or date-time with an offset "
                        + "(\"2027-06-01T12:00:00Z\"), got \(JSONValue.quoted(expiresText))")
            }
        }
        let onExpiry = object.choice("on_expiry", default: PinExpiryBehaviour.unpinned, &diagnostics)
        if mode != .off && live.written == 0 && (object["sha256"] == nil || live.isArray) {
            let consequence = mode == .enforce ? "block everything" : "report every connection"
            diagnostics.add(
                object.path("sha256"),
                "expected at least one pin in \(mode.rawValue) mode (an empty set would \(consequence)); "
                    + "use \"mode\": \"off\" to disable pinning")
        }
        let policy = PinPolicy(
            live: live.pins, mode: mode, candidate: candidate.pins, expires: expires, onExpiry: onExpiry)
        if mode != .off {
            warnAboutPins(policy, expiresText: expiresText, object, &context)
        }
        return policy
    }

    /// The pins of a list member: valid ones parsed, every bad or duplicate one reported.
    /// `written` counts the items as written, so an empty-set error is not added on top
    /// of per-item errors.
    private static func readPinList(
        _ object: FieldReader, _ key: String, _ diagnostics: inout Diagnostics
    ) -> (pins: [SPKIPinValue], written: Int, isArray: Bool) {
        guard let value = object[key] else { return ([], 0, false) }
        let path = object.path(key)
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of SPKI pins such as \"sha256/<base64>\", got \(value.rendered)")
            return ([], 0, false)
        }
        var pins: [SPKIPinValue] = []
        var firstUse: [SPKIPinValue: Int] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = Diagnostics.join(path, index)
            guard case .string(let text) = item else {
                diagnostics.add(itemPath, "expected an SPKI pin such as \"sha256/<base64>\", got \(item.rendered)")
                continue
            }
            do {
                let pin = try PinParser.parse(text)
                if let earlier = firstUse[pin] {
                    diagnostics.add(itemPath, "duplicate pin \(pin) (same as \(key)[\(earlier)])")
                    continue
                }
                firstUse[pin] = index
                pins.append(pin)
            } catch {
                diagnostics.add(itemPath, error.message)
            }
        }
        return (pins, items.count, true)
    }
}
