/// TrustKit: an Info.plist with `TSKConfiguration`, one enforcing domain with two pins and
/// an expiration day.
enum PinSnippetTrustKit {
    static func lines(_ input: PinSnippetInput) -> [String] {
        let expires = input.expires ?? ""
        var notes = input.header("TrustKit configuration (Info.plist, TSKConfiguration)")
        notes += [
            "It is not base64: TrustKit (and Faultline's readers) refuse this configuration until it is replaced.",
            "Pitfalls (docs/pinning.md, TrustKit):",
            "- TrustKit refuses to start with fewer than two pins for an enforcing domain: the backup pin is",
            "  required, not optional.",
            "- After TSKExpirationDate (\(expires)) TrustKit stops pinning \(input.host).",
            "- Pins match any certificate of the verified chain, the trust anchor included.",
            "- TSKIncludeSubdomains would cover every name below \(input.host), at any depth.",
            "- With TSKEnforcePinning false TrustKit only reports failures to TSKReportUris; while testing, point",
            "  TSKReportUris at Faultline's admin API (http://127.0.0.1:PORT/pins/reports).",
            "- TSKSwizzleNetworkDelegates false: check trust in your URLSession delegate with TSKPinningValidator.",
        ]
        return PinSnippet.plistProlog + PinSnippet.xmlComment(notes) + [
            "<plist version=\"1.0\">",
            "<dict>",
            "  <key>TSKConfiguration</key>",
            "  <dict>",
            "    <key>TSKSwizzleNetworkDelegates</key>",
            "    <false/>",
            "    <key>TSKPinnedDomains</key>",
            "    <dict>",
            "      <key>\(input.host)</key>",
            "      <dict>",
            "        <key>TSKEnforcePinning</key>",
            "        <true/>",
            "        <key>TSKIncludeSubdomains</key>",
            "        <false/>",
            "        <key>TSKExpirationDate</key>",
            "        <string>\(expires)</string>",
            "        <key>TSKPublicKeyHashes</key>",
            "        <array>",
            "          <string>\(input.pin)</string>",
            "          <string>\(PinSnippet.backupPlaceholder)</string>",
            "        </array>",
            "      </dict>",
            "    </dict>",
            "  </dict>",
            "</dict>",
            "</plist>",
        ]
    }
}
