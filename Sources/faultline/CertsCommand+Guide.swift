import FaultlineTLS

/// What `certs init` prints after minting: files, how to trust the CA, and the pins.
enum CertsCommandGuide {
    static func lines(for report: CertificateDirectoryReport, names: [String]) -> [String] {
        let dir = report.directory.hasSuffix("/") ? String(report.directory.dropLast()) : report.directory
        let ca = "\(dir)/ca.pem"
        var lines: [String] = []
        lines.append(report.createdCA ? "Created a development CA: \(report.ca.subject)"
                                      : "Kept the existing CA: \(report.ca.subject) (--force makes a new one)")
        lines += report.written.map { "  wrote \($0)" }
        lines += report.kept.map { "  kept  \($0)" }
        lines.append("Listener certificate for \(names.joined(separator: ", ")), valid until \(report.leaf.notAfterISO8601)")
        for drill in report.drills {
            lines.append("  drill \(drill.path): \(drill.drill.summary)")
        }
        lines += [
            "",
            "Trust the CA (\(ca)) where the client runs:",
            "  curl:              curl --cacert \(ca) https://localhost:8443/",
            "  iOS simulator:     xcrun simctl keychain booted add-root-cert \(ca)",
            "  Android emulator:  add res/xml/network_security_config.xml to the debug build:",
            "                       <network-security-config><debug-overrides><trust-anchors>",
            "                         <certificates src=\"user\"/><certificates src=\"@raw/faultline_ca\"/>",
            "                       </trust-anchors></debug-overrides></network-security-config>",
            "                     (copy \(ca) to res/raw/faultline_ca.pem), or install it as a user CA:",
            "                       adb push \(ca) /sdcard/Download/faultline-ca.pem, then Settings → Security →",
            "                       Encryption & credentials → Install a certificate → CA certificate",
            "  iOS device:        AirDrop or mail \(ca), install the profile (Settings → General → VPN & Device",
            "                     Management), then enable full trust in Settings → General → About →",
            "                     Certificate Trust Settings",
            "  The emulator and devices reach this machine by its LAN address or 10.0.2.2 (Android emulator):",
            "  add those with --names.",
            "",
            "SPKI pins (what an app pins; see `faultline pins compute FILE`):",
            "  CA      sha256/\(report.ca.spkiPin)  \(report.ca.subject)",
            "  leaf    sha256/\(report.leaf.spkiPin)  \(report.leaf.subject)",
            "Listener config: {\"address\": \"127.0.0.1:8443\", \"tls\": {\"certificate\": \"\(dir)/proxy.pem\", "
                + "\"key\": \"\(dir)/proxy-key.pem\"}}",
        ]
        return lines
    }
}
