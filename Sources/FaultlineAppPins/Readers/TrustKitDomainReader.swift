import Foundation

/// One `TSKPinnedDomains` entry, checked the way TrustKit's configuration parser checks it.
enum TrustKitDomainReader {
    static func read(name: String, value: Any?, path: KeyPath,
                     document: PlistDocument) throws(AppPinConfigurationError) -> AppPinDomain {
        let settings = try document.dictionary(value, at: path)
        let domain = HostPattern.normalize(name)
        guard !domain.isEmpty, !domain.contains("*"), !domain.contains(" ") else {
            throw document.error(path, "not a domain name: TrustKit refuses it")
        }
        let includeSubdomains = try flag(settings, "TSKIncludeSubdomains", default: false, path: path, document: document)
        if includeSubdomains && !domain.contains(".") {
            throw document.error(path, "TSKIncludeSubdomains on a public suffix: TrustKit refuses it")
        }
        let enforce = try flag(settings, "TSKEnforcePinning", default: true, path: path, document: document)
        let excluded = try flag(settings, TrustKitKeys.exclude, default: false, path: path, document: document)
        _ = try flag(settings, "TSKDisableDefaultReportUri", default: false, path: path, document: document)
        var expiration: Date?
        if let (key, raw) = TrustKitKeys.value(settings, "TSKExpirationDate") {
            let datePath = path.appending(key)
            let text = try document.string(raw, at: datePath)
            guard let day = PinText.day(text) else { throw document.error(datePath, "not a yyyy-MM-dd date: \"\(text)\"") }
            expiration = day
        }
        var reportURIs: [String] = []
        if let (key, raw) = TrustKitKeys.value(settings, "TSKReportUris") {
            let listPath = path.appending(key)
            for (index, item) in try document.array(raw, at: listPath).enumerated() {
                let text = try document.string(item, at: listPath.appending(index: index))
                guard let url = URL(string: text), url.scheme != nil else {
                    throw document.error(listPath.appending(index: index), "not a URL: TrustKit refuses it")
                }
                reportURIs.append(text)
            }
        }
        let pins = try readPins(settings, path: path, document: document, excluded: excluded)
        let required = enforce ? 2 : 1
        if !excluded && Set(pins.map(\.value)).count < required {
            let mode = enforce ? "an enforcing" : "a report-only"
            throw document.error(path, "\(Set(pins.map(\.value)).count) distinct pin(s): TrustKit refuses fewer than \(required) for \(mode) domain (no backup pin)")
        }
        return AppPinDomain(pattern: includeSubdomains ? .domainAndSubdomains(domain) : .exact(domain), pins: pins,
                            expiration: expiration, enforce: enforce, reportURIs: reportURIs, excludedFromParent: excluded,
                            keyPath: path.description, line: document.line(path))
    }

    private static func readPins(_ settings: [String: Any], path: KeyPath, document: PlistDocument,
                                 excluded: Bool) throws(AppPinConfigurationError) -> [AppPin] {
        guard let (key, raw) = TrustKitKeys.value(settings, "TSKPublicKeyHashes") else {
            if excluded { return [] }
            throw document.error(path, "no TSKPublicKeyHashes: TrustKit refuses a domain without pins")
        }
        let listPath = path.appending(key)
        var pins: [AppPin] = []
        for (index, item) in try document.array(raw, at: listPath).enumerated() {
            let itemPath = listPath.appending(index: index)
            let text = try document.string(item, at: itemPath)
            guard let value = PinText.sha256(base64: text) else { throw document.error(itemPath, PinText.refusal(of: text, platform: "TrustKit")) }
            pins.append(AppPin(value: value, scope: .anyInChain, line: document.line(itemPath)))
        }
        return pins
    }

    private static func flag(_ settings: [String: Any], _ key: String, default fallback: Bool, path: KeyPath,
                             document: PlistDocument) throws(AppPinConfigurationError) -> Bool {
        guard let (spelling, raw) = TrustKitKeys.value(settings, key) else { return fallback }
        return try document.bool(raw, at: path.appending(spelling))
    }
}
