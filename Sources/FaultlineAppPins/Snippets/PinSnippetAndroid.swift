/// Android: a whole `network_security_config.xml` with one `domain-config`, its `pin-set`
/// expiring on the given day, and a commented-out `debug-overrides`.
enum PinSnippetAndroid {
    static func lines(_ input: PinSnippetInput) -> [String] {
        let expires = input.expires ?? ""
        var notes = input.header("Android network security configuration")
        notes += [
            "Save as res/xml/network_security_config.xml, referenced by android:networkSecurityConfig in the manifest.",
            "It is not base64: Android (and Faultline's readers) refuse this file until it is replaced.",
            "Pitfalls (docs/pinning.md, Android network security configuration):",
            "- After the pin-set expiration (\(expires)) Android stops enforcing these pins: the app connects",
            "  unpinned. Ship new pins, with a later expiration, before that day.",
            "- Pins match any certificate of the verified chain, the trust anchor included.",
            "- includeSubdomains=\"true\" would cover every name below \(input.host), at any depth.",
            "- debug-overrides applies to debuggable builds only, and its certificates default to",
            "  overridePins=\"true\": a debug build that trusts user CAs (a debugging proxy) skips the pins.",
            "  Release builds ignore it. The block below is commented out; enable it for debug builds only.",
        ]
        return ["<?xml version=\"1.0\" encoding=\"utf-8\"?>"] + PinSnippet.xmlComment(notes) + [
            "<network-security-config>",
            "  <domain-config>",
            "    <domain includeSubdomains=\"false\">\(input.host)</domain>",
            "    <pin-set expiration=\"\(expires)\">",
            "      <pin digest=\"SHA-256\">\(input.pin)</pin>",
            "      <pin digest=\"SHA-256\">\(PinSnippet.backupPlaceholder)</pin>",
            "    </pin-set>",
            "  </domain-config>",
            "  <!--",
            "  <debug-overrides>",
            "    <trust-anchors>",
            "      <certificates src=\"user\" />",
            "    </trust-anchors>",
            "  </debug-overrides>",
            "  -->",
            "</network-security-config>",
        ]
    }
}
