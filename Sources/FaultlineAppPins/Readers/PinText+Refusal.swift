import Foundation
import FaultlineTLS

/// Why a plist pin value was refused, with the fix when it is the usual slip.
extension PinText {
    /// The spellings other tools print in front of the base64 value (OkHttp and Faultline
    /// `sha256/`, curl `sha256//`, HPKP `pin-sha256="…"`), longest first.
    private static let foreignPrefixes = ["pin-sha256=\"", "pin-sha256=", "sha256//", "sha256/"]

    /// "not base64 of 32 bytes", and when `text` is a valid pin behind another tool's prefix
    /// (a `sha256/…` value pasted into an Info.plist), which prefix to remove: `platform`
    /// (ATS, TrustKit) takes the bare base64 value.
    static func refusal(of text: String, platform: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in foreignPrefixes where trimmed.lowercased().hasPrefix(prefix) {
            var rest = String(trimmed.dropFirst(prefix.count))
            if prefix.hasSuffix("\""), rest.hasSuffix("\"") { rest.removeLast() }
            if let value = sha256(base64: rest) {
                return "not base64 of 32 bytes: remove the \"\(prefix)\" prefix; \(platform) takes the bare base64 value (\(value.base64))"
            }
        }
        return "not base64 of 32 bytes"
    }
}
