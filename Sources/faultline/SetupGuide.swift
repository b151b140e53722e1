import FaultlineTLS

/// The text `faultline setup` prints: per target, the address the target uses for the proxy
/// and the admin API, the commands that set the proxy and trust the CA, and the session.
struct SetupGuide {
    /// The forward listener and the admin API as bound on this machine.
    let proxy: SetupAddress
    let admin: SetupAddress
    /// `DIR/ca.pem`, and the certificate there when it could be read.
    let caPath: String
    let ca: Certificate?
    /// This machine's non-loopback addresses, described (`192.168.1.20 (wlan0)`), best first.
    let lan: [String]

    func lines(for target: SetupTarget) -> [String] {
        switch target {
        case .iosSimulator: iosSimulator()
        case .androidEmulator: androidEmulator()
        case .device: device()
        }
    }

    /// What the CA is, or how to make one.
    var caLines: [String] {
        guard let ca else {
            let directory = caPath.contains("/") ? String(caPath[..<(caPath.lastIndex(of: "/") ?? caPath.endIndex)]) : "."
            return ["No CA certificate at \(caPath) yet: the forward listener creates one when it starts "
                + "(or run `faultline certs init --dir \(directory.isEmpty ? "/" : directory)`)."]
        }
        return ["CA: \(caPath), \(ca.subject), SHA-256 \(ca.sha256Fingerprint)"]
    }

    /// How a target whose requests reach Faultline from `clientAddress` gets its own session.
    func sessionLines(clientAddress: String, note: String?) -> [String] {
        let adminURL = "http://\(admin.isWildcard ? admin.on("127.0.0.1").text : admin.text)"
        var lines = [
            "",
            "A session of its own (its own rules, counters and journal; see docs/sessions.md): claim the",
            "address Faultline sees the target's requests come from, \(clientAddress):",
            "  curl -s -H 'Content-Type: application/json' \(adminURL)/sessions \\",
            "       -d '{\"name\": \"my device\", \"clients\": [\"\(clientAddress)\"], \"ttl_s\": 3600}'",
            "  (add -H \"Authorization: Bearer $TOKEN\" when admin.token is set). Then give it rules:",
            "  curl -s -H 'Content-Type: application/json' \(adminURL)/sessions/ID/rules \\",
            "       -d '{\"name\": \"pay-down\", \"match\": {\"host\": \"api.example.com\"}, \"faults\": [{\"status\": 503}]}'",
        ]
        if let note { lines.append(note) }
        lines.append("  The log line of each request names its client.address, if in doubt.")
        return lines
    }

    /// The network_security_config debug-overrides block and where it goes.
    var debugOverridesLines: [String] {
        [
            "  Apps trust user CAs only when they opt in (Android 7+). A debuggable build does with",
            "  res/xml/network_security_config.xml (debug-overrides apply to debuggable builds only):",
            "    <network-security-config>",
            "      <debug-overrides>",
            "        <trust-anchors>",
            "          <certificates src=\"user\" />",
            "          <certificates src=\"system\" />",
            "        </trust-anchors>",
            "      </debug-overrides>",
            "    </network-security-config>",
            "  and in AndroidManifest.xml: <application android:networkSecurityConfig=\"@xml/network_security_config\" …>",
            "  An app that pins its hosts refuses Faultline's certificate for them anyway: Faultline counts the",
            "  refusals (GET /intercept on the admin API) and, with forward.pass_through_after_refusals, passes",
            "  such hosts through.",
        ]
    }
}
