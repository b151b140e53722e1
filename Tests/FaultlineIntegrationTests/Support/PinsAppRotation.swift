import Foundation
import FaultlineTestSupport

/// Three shipped app versions around a leaf key rotation: ios-4.1 pins the current leaf
/// key only, ios-4.2 the intermediate CA key and a backup, android-4.2 the leaf key and a
/// backup with a pin-set expiration 30 days ahead.
struct PinsAppRotation {
    let chain: TLSChain
    let directory: TemporaryDirectory
    let today: String
    let expiration: String
    let dayAfterExpiration: String

    init() async throws {
        chain = try await TLSChainFactory.make()
        directory = try TemporaryDirectory()
        let now = Date()
        today = Self.day(now)
        expiration = Self.day(now.addingTimeInterval(30 * 86_400))
        dayAfterExpiration = Self.day(now.addingTimeInterval(31 * 86_400))
        try directory.write("ios-4.1.plist", Self.ats(leaf: [chain.pin("leaf")], ca: nil))
        try directory.write("ios-4.2.plist", Self.ats(leaf: nil, ca: [chain.pin("int"), chain.pin("backup")]))
        try directory.write("network_security_config.xml", """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config>
              <domain-config>
                <domain includeSubdomains="false">localhost</domain>
                <pin-set expiration="\(expiration)">
                  <pin digest="SHA-256">\(chain.pin("leaf"))</pin>
                  <pin digest="SHA-256">\(chain.pin("backup"))</pin>
                </pin-set>
              </domain-config>
            </network-security-config>

            """)
    }

    func path(_ name: String) -> String { directory.path(name) }

    var apps: [String] {
        ["--app", "ios-4.1=\(path("ios-4.1.plist"))", "--app", "ios-4.2=\(path("ios-4.2.plist"))",
         "--app", "android-4.2=\(path("network_security_config.xml"))"]
    }

    /// `    leaf          sha256/…  CN=localhost` and the rest of a verified chain ending at the root.
    func chainLines(leaf: String) -> String {
        """
            leaf          sha256/\(chain.pin(leaf))  CN=localhost
            intermediate  sha256/\(chain.pin("int"))  CN=Faultline Test Intermediate
            root          sha256/\(chain.pin("root"))  CN=Faultline Test Root
        """
    }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    static func ats(leaf: [String]?, ca: [String]?) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<plist version=\"1.0\">", "<dict>",
                     "  <key>NSAppTransportSecurity</key>", "  <dict>", "    <key>NSPinnedDomains</key>", "    <dict>",
                     "      <key>localhost</key>", "      <dict>"]
        for (key, pins) in [("NSPinnedLeafIdentities", leaf), ("NSPinnedCAIdentities", ca)] {
            guard let pins else { continue }
            lines += ["        <key>\(key)</key>", "        <array>"]
            lines += pins.map { "          <dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }
            lines.append("        </array>")
        }
        lines += ["      </dict>", "    </dict>", "  </dict>", "</dict>", "</plist>"]
        return lines.joined(separator: "\n") + "\n"
    }
}
