/// App Transport Security: an Info.plist with `NSAppTransportSecurity.NSPinnedDomains`.
/// A leaf pin goes to `NSPinnedLeafIdentities`, a CA pin to `NSPinnedCAIdentities`, never
/// both (ATS would require both to match).
enum PinSnippetATS {
    static func lines(_ input: PinSnippetInput) -> [String] {
        let leaf = input.position == .leaf
        let listKey = leaf ? "NSPinnedLeafIdentities" : "NSPinnedCAIdentities"
        var notes = input.header("App Transport Security pins (Info.plist, NSAppTransportSecurity)")
        notes += [
            "It is not base64: Faultline's readers refuse this block until it is replaced, but ATS itself would",
            "silently ignore it and ship with a single pin.",
            "Pitfalls (docs/pinning.md, Apple App Transport Security):",
        ]
        if leaf {
            notes += [
                "- NSPinnedLeafIdentities are compared with the leaf certificate only: the next leaf key must be the",
                "  backup key, or the app stops connecting at the rotation. A CA pin (pins compute with position",
                "  intermediate or root) goes to NSPinnedCAIdentities and survives leaf key rotations.",
            ]
        } else {
            notes += [
                "- NSPinnedCAIdentities are compared with every CA certificate of the verified chain (intermediates",
                "  and root), never the leaf: the pin survives leaf key rotations, not a change of CA key, and it",
                "  accepts every certificate that CA issues for \(input.host).",
            ]
        }
        notes += [
            "- Do not set NSPinnedLeafIdentities and NSPinnedCAIdentities together unless both must match: with both",
            "  keys, ATS requires a leaf match and a CA match.",
            "- NSIncludesSubdomains covers names one label below \(input.host) only (x.\(input.host), not",
            "  y.x.\(input.host)); deeper names need entries of their own.",
            "- ATS pins have no expiration: they stay until an app update ships new ones.",
        ]
        func identity(_ pin: String) -> [String] {
            ["          <dict>", "            <key>SPKI-SHA256-BASE64</key>", "            <string>\(pin)</string>", "          </dict>"]
        }
        return PinSnippet.plistProlog + PinSnippet.xmlComment(notes) + [
            "<plist version=\"1.0\">",
            "<dict>",
            "  <key>NSAppTransportSecurity</key>",
            "  <dict>",
            "    <key>NSPinnedDomains</key>",
            "    <dict>",
            "      <key>\(input.host)</key>",
            "      <dict>",
            "        <key>NSIncludesSubdomains</key>",
            "        <false/>",
            "        <key>\(listKey)</key>",
            "        <array>",
        ] + identity(input.pin) + identity(PinSnippet.backupPlaceholder) + [
            "        </array>",
            "      </dict>",
            "    </dict>",
            "  </dict>",
            "</dict>",
            "</plist>",
        ]
    }
}
