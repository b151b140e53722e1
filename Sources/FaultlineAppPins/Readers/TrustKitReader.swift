public import Foundation

/// Reads a TrustKit configuration: the `TSKConfiguration` dictionary of an Info.plist (XML
/// or binary), or the same keys as JSON (with or without the `TSKConfiguration` wrapper).
/// Keys are accepted as TrustKit stores them (`TSKPublicKeyHashes`) or as its constant
/// names (`kTSKPublicKeyHashes`). What TrustKit refuses at initialization is refused here.
public enum TrustKitReader {
    /// Reads the file at `path`: JSON when it starts with `{`, a property list otherwise.
    public static func read(path: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        try read(data: AppPinFile.contents(of: path), file: path)
    }

    /// Reads a document held in memory; `file` names it in errors.
    public static func read(data: Data, file: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        let first = data.first { !Character(UnicodeScalar($0)).isWhitespace }
        let document = first == UInt8(ascii: "{") ? try PlistDocument.json(data, file: file) : try PlistDocument.plist(data, file: file)
        return try read(document)
    }

    static func read(_ document: PlistDocument) throws(AppPinConfigurationError) -> AppPinConfiguration {
        let root = try document.dictionary(document.root, at: .root)
        var configPath = KeyPath.root
        var configuration = root
        if let wrapped = root["TSKConfiguration"] {
            configPath = configPath.appending("TSKConfiguration")
            configuration = try document.dictionary(wrapped, at: configPath)
        } else if case .json = document.format {
            // JSON may hold the configuration itself.
        } else {
            throw document.error(.root, "no TSKConfiguration dictionary: this Info.plist holds no TrustKit configuration")
        }
        guard let (domainsKey, pinned) = TrustKitKeys.value(configuration, "TSKPinnedDomains") else {
            throw document.error(configPath, "no TSKPinnedDomains: TrustKit refuses a configuration without pinned domains")
        }
        let domainsPath = configPath.appending(domainsKey)
        let domains = try document.dictionary(pinned, at: domainsPath)
        guard !domains.isEmpty else {
            throw document.error(domainsPath, "empty: TrustKit refuses a configuration without pinned domains")
        }
        var entries: [AppPinDomain] = []
        for name in domains.keys.sorted() {
            let path = domainsPath.appending(name: name)
            entries.append(try TrustKitDomainReader.read(name: name, value: domains[name], path: path, document: document))
        }
        for entry in entries where entry.excludedFromParent {
            let probe = "a" + entry.pattern.domain
            let parent = entries.first { $0.keyPath != entry.keyPath && $0.pattern.matches(probe) }
            if parent == nil {
                throw AppPinConfigurationError(file: document.file, keyPath: entry.keyPath,
                                               problem: "kSKExcludeSubdomainFromParentPolicy set but no parent domain includes subdomains",
                                               location: AppPinLocation(entry.line))
            }
        }
        return AppPinConfiguration(platform: .trustKit, file: document.file, domains: entries)
    }
}
