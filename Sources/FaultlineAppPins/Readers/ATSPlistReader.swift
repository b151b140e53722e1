public import Foundation

/// Reads App Transport Security pins (`NSAppTransportSecurity.NSPinnedDomains`) from an
/// Info.plist, XML or binary.
public enum ATSPlistReader {
    private static let pinKeys: [(key: String, scope: AppPinScope)] = [
        ("NSPinnedLeafIdentities", .leaf), ("NSPinnedCAIdentities", .ca),
    ]
    private static let digestKey = "SPKI-SHA256-BASE64"

    /// Reads the file at `path`.
    public static func read(path: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        try read(data: AppPinFile.contents(of: path), file: path)
    }

    /// Reads a property list held in memory; `file` names it in errors.
    public static func read(data: Data, file: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        try read(PlistDocument.plist(data, file: file))
    }

    static func read(_ document: PlistDocument) throws(AppPinConfigurationError) -> AppPinConfiguration {
        let root = try document.dictionary(document.root, at: .root)
        let atsPath = KeyPath.root.appending("NSAppTransportSecurity")
        guard let ats = root["NSAppTransportSecurity"] else {
            throw document.error(.root, "no NSAppTransportSecurity dictionary: this Info.plist pins nothing with ATS")
        }
        let atsDictionary = try document.dictionary(ats, at: atsPath)
        let domainsPath = atsPath.appending("NSPinnedDomains")
        guard let pinned = atsDictionary["NSPinnedDomains"] else {
            throw document.error(atsPath, "no NSPinnedDomains: this Info.plist pins nothing with ATS")
        }
        let domains = try document.dictionary(pinned, at: domainsPath)
        var entries: [AppPinDomain] = []
        var warnings: [String] = []
        for name in domains.keys.sorted() {
            let path = domainsPath.appending(name: name)
            let entry = try readDomain(name: name, value: domains[name], path: path, document: document, warnings: &warnings)
            entries.append(entry)
        }
        if entries.isEmpty { warnings.append(document.warning(domainsPath, "empty: no domain is pinned")) }
        return AppPinConfiguration(platform: .ats, file: document.file, domains: entries, warnings: warnings)
    }

    private static func readDomain(name: String, value: Any?, path: KeyPath, document: PlistDocument,
                                   warnings: inout [String]) throws(AppPinConfigurationError) -> AppPinDomain {
        let settings = try document.dictionary(value, at: path)
        let domain = HostPattern.normalize(name)
        guard !domain.isEmpty, !domain.contains("*"), !domain.contains(" ") else {
            throw document.error(path, "not a domain name (ATS takes plain names; use NSIncludesSubdomains for subdomains)")
        }
        var includesSubdomains = false
        if let flag = settings["NSIncludesSubdomains"] {
            includesSubdomains = try document.bool(flag, at: path.appending("NSIncludesSubdomains"))
        }
        var pins: [AppPin] = []
        var declared: Set<AppPinScope> = []
        for (key, scope) in pinKeys {
            guard let list = settings[key] else { continue }
            declared.insert(scope)
            let listPath = path.appending(key)
            let items = try document.array(list, at: listPath)
            if items.isEmpty {
                warnings.append(document.warning(listPath, "empty: ATS refuses every connection to \(domain)"))
            }
            for (index, item) in items.enumerated() {
                let itemPath = listPath.appending(index: index)
                let identity = try document.dictionary(item, at: itemPath)
                let digestPath = itemPath.appending(digestKey)
                guard let raw = identity[digestKey] else { throw document.error(itemPath, "no \(digestKey) key") }
                let text = try document.string(raw, at: digestPath)
                guard let value = PinText.sha256(base64: text) else {
                    throw document.error(digestPath, PinText.refusal(of: text, platform: "ATS"))
                }
                pins.append(AppPin(value: value, scope: scope, line: document.line(digestPath)))
            }
        }
        guard !declared.isEmpty else {
            throw document.error(path, "neither NSPinnedLeafIdentities nor NSPinnedCAIdentities: ATS requires at least one")
        }
        // As the Android reader and `pins check` say: ATS accepts one pin, but a lost or
        // rotated key then locks the app out until an update ships.
        if Set(pins.map(\.value)).count == 1 {
            warnings.append(document.warning(path, "one pin and no backup pin: if that key is lost or rotated, ATS refuses every connection to \(domain)"))
        }
        return AppPinDomain(pattern: includesSubdomains ? .domainAndChildren(domain) : .exact(domain), pins: pins,
                            declaredScopes: declared, keyPath: path.description, line: document.line(path))
    }
}
