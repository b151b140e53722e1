import Foundation

/// Info.plist text written line by line so tests know each value's line.
enum PlistText {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        """
    static let footer = """
        </dict>
        </plist>
        """

    /// An Info.plist with one ATS pinned domain; `leaf` and `ca` nil leave the key out.
    static func ats(domain: String, includesSubdomains: Bool = false, leaf: [String]?, ca: [String]?) -> String {
        var lines = [header, "<key>NSAppTransportSecurity</key>", "<dict>", "<key>NSPinnedDomains</key>", "<dict>",
                     "<key>\(domain)</key>", "<dict>"]
        if includesSubdomains { lines += ["<key>NSIncludesSubdomains</key>", "<true/>"] }
        for (key, pins) in [("NSPinnedLeafIdentities", leaf), ("NSPinnedCAIdentities", ca)] {
            guard let pins else { continue }
            lines += ["<key>\(key)</key>", "<array>"]
            for pin in pins {
                lines += ["<dict>", "<key>SPKI-SHA256-BASE64</key>", "<string>\(pin)</string>", "</dict>"]
            }
            lines.append("</array>")
        }
        lines += ["</dict>", "</dict>", "</dict>", footer]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same content as a binary property list.
    static func binary(_ value: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    /// The ATS dictionary for one domain, for binary property lists.
    static func atsValue(domain: String, includesSubdomains: Bool = false, leaf: [String]?, ca: [String]?) -> [String: Any] {
        var settings: [String: Any] = ["NSIncludesSubdomains": includesSubdomains]
        if let leaf { settings["NSPinnedLeafIdentities"] = leaf.map { ["SPKI-SHA256-BASE64": $0] } }
        if let ca { settings["NSPinnedCAIdentities"] = ca.map { ["SPKI-SHA256-BASE64": $0] } }
        return ["NSAppTransportSecurity": ["NSPinnedDomains": [domain: settings]]]
    }
}
