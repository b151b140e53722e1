import Foundation

/// Apps' own pin configuration files, written line by line so tests know each value's line.
enum AppPinFiles {
    /// An Info.plist pinning `domain` with ATS; `leaf` and `ca` nil leave that key out.
    /// The first leaf identity's `<string>` is on line 15.
    static func ats(domain: String, leaf: [String]?, ca: [String]? = nil) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
            #"<plist version="1.0">"#, "<dict>",
            "<key>NSAppTransportSecurity</key>", "<dict>", "<key>NSPinnedDomains</key>", "<dict>",
            "<key>\(domain)</key>", "<dict>",
        ]
        for (key, pins) in [("NSPinnedLeafIdentities", leaf), ("NSPinnedCAIdentities", ca)] {
            guard let pins else { continue }
            lines += ["<key>\(key)</key>", "<array>"]
            for pin in pins {
                lines += ["<dict>", "<key>SPKI-SHA256-BASE64</key>", "<string>\(pin)</string>", "</dict>"]
            }
            lines.append("</array>")
        }
        lines += ["</dict>", "</dict>", "</dict>", "</dict>", "</plist>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A network_security_config.xml pinning `domain` (no subdomains) with `pins`, the
    /// pin-set expiring on `expiration` (`yyyy-MM-dd`) when given.
    static func android(domain: String, pins: [String], expiration: String? = nil) -> String {
        let expires = expiration.map { " expiration=\"\($0)\"" } ?? ""
        let pinLines = pins.map { "            <pin digest=\"SHA-256\">\($0)</pin>" }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config>
                <domain-config>
                    <domain includeSubdomains="false">\(domain)</domain>
                    <pin-set\(expires)>
            \(pinLines)
                    </pin-set>
                </domain-config>
            </network-security-config>

            """
    }

    /// Kotlin source building an OkHttp `CertificatePinner` with one `add` per pattern.
    static func okHttpKotlin(_ entries: [(pattern: String, pins: [String])]) -> String {
        let adds = entries.map { entry in
            "        .add(\"\(entry.pattern)\", " + entry.pins.map { "\"sha256/\($0)\"" }.joined(separator: ", ") + ")"
        }
        return """
            import okhttp3.CertificatePinner

            val pinner = CertificatePinner.Builder()
            \(adds.joined(separator: "\n"))
                    .build()

            """
    }

    /// A plain OkHttp pin list: `pattern sha256/… …` per line.
    static func okHttpList(_ entries: [(pattern: String, pins: [String])]) -> String {
        entries.map { entry in ([entry.pattern] + entry.pins.map { "sha256/\($0)" }).joined(separator: " ") }
            .joined(separator: "\n") + "\n"
    }
}
