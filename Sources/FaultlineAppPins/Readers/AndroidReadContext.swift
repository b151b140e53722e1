import FaultlineTLS
import Foundation

/// The state of one Android read: the file name, the domains seen (Android rejects
/// duplicates) and the warnings so far.
struct AndroidReadContext {
    /// A parsed `pin-set`.
    struct PinSetValue {
        let pins: [AppPin]
        let expiration: Date?
    }

    let file: String
    var seenDomains: Set<String> = []
    var warnings: [String] = []

    init(file: String) {
        self.file = file
    }

    func error(_ node: XMLNode, _ problem: String) -> AppPinConfigurationError {
        AppPinConfigurationError(file: file, keyPath: node.path, problem: problem, location: .line(node.line))
    }

    /// `base-config` or `debug-overrides`: only trust anchors count; domains and pin-sets
    /// are errors there, as in Android.
    func plainConfig(_ node: XMLNode, defaultOverridePins: Bool) throws(AppPinConfigurationError) -> [AppTrustAnchor]? {
        for child in node.children where ["domain", "pin-set", "domain-config"].contains(child.name) {
            throw error(child, "\(child.name) is not allowed in \(node.name)")
        }
        return try trustAnchors(of: node, defaultOverridePins: defaultOverridePins)
    }

    /// One `domain-config` and those nested in it, flattened into one entry per `domain`,
    /// each with the pin-set and anchors in effect (own, else inherited).
    mutating func domainConfig(_ node: XMLNode, inheritedPins: PinSetValue?,
                               inheritedAnchors: [AppTrustAnchor]?) throws(AppPinConfigurationError) -> [AppPinDomain] {
        let pinSets = node.children("pin-set")
        if pinSets.count > 1 { throw error(pinSets[1], "multiple pin-set elements are not allowed") }
        let pins = try pinSets.first.map { set throws(AppPinConfigurationError) in try pinSet(set) } ?? inheritedPins
        let anchors = try trustAnchors(of: node, defaultOverridePins: false) ?? inheritedAnchors
        let domainNodes = node.children("domain")
        guard !domainNodes.isEmpty else { throw error(node, "no domain elements in domain-config") }
        var entries: [AppPinDomain] = []
        for domainNode in domainNodes {
            let (name, includeSubdomains) = try domain(domainNode)
            entries.append(AppPinDomain(pattern: includeSubdomains ? .domainAndSubdomains(name) : .exact(name),
                                        pins: pins?.pins ?? [], declaredScopes: [.anyInChain], expiration: pins?.expiration,
                                        trustAnchors: anchors, keyPath: domainNode.path, line: domainNode.line))
        }
        for nested in node.children("domain-config") {
            entries += try domainConfig(nested, inheritedPins: pins, inheritedAnchors: anchors)
        }
        return entries
    }

    private mutating func domain(_ node: XMLNode) throws(AppPinConfigurationError) -> (String, Bool) {
        let include = try boolean(node, "includeSubdomains", default: false)
        guard node.children.isEmpty else { throw error(node, "domain contains additional elements") }
        let name = HostPattern.normalize(node.trimmedText)
        guard !name.isEmpty else { throw error(node, "domain name missing") }
        guard seenDomains.insert(name).inserted else { throw error(node, "\(name) has already been specified") }
        return (name, include)
    }

    private mutating func pinSet(_ node: XMLNode) throws(AppPinConfigurationError) -> PinSetValue {
        var expiration: Date?
        if let text = node.attributes["expiration"] {
            guard let day = PinText.day(text) else { throw error(node, "invalid expiration date in pin-set: \"\(text)\"") }
            expiration = day
        }
        var pins: [AppPin] = []
        for pinNode in node.children("pin") {
            let digest = pinNode.attributes["digest"]
            guard let digest, digest.uppercased() == "SHA-256" else {
                throw error(pinNode, "unsupported pin digest algorithm: \(digest.map { "\"\($0)\"" } ?? "none") (only SHA-256)")
            }
            guard pinNode.children.isEmpty else { throw error(pinNode, "pin contains additional elements") }
            let text = pinNode.trimmedText
            guard !text.isEmpty else { throw error(pinNode, "missing pin digest") }
            guard let bytes = PinText.lenientBase64(text) else { throw error(pinNode, "invalid pin digest: not base64") }
            guard let value = SPKIPinValue(digest: bytes) else {
                throw error(pinNode, "digest length \(bytes.count) does not match SHA-256's 32 bytes")
            }
            pins.append(AppPin(value: value, scope: .anyInChain, line: pinNode.line))
        }
        if Set(pins.map(\.value)).count == 1 {
            warnings.append("\(node.path): one pin and no backup pin (line \(node.line))")
        }
        return PinSetValue(pins: pins, expiration: expiration)
    }

    private func trustAnchors(of node: XMLNode, defaultOverridePins: Bool) throws(AppPinConfigurationError) -> [AppTrustAnchor]? {
        let lists = node.children("trust-anchors")
        if lists.count > 1 { throw error(lists[1], "multiple trust-anchors elements are not allowed") }
        guard let list = lists.first else { return nil }
        var anchors: [AppTrustAnchor] = []
        for entry in list.children("certificates") {
            guard let src = entry.attributes["src"] else { throw error(entry, "certificates element missing src attribute") }
            guard let source = AppTrustAnchorSource(attribute: src) else {
                throw error(entry, "unknown certificates src \"\(src)\": one of system, user, @resource")
            }
            let override = try boolean(entry, "overridePins", default: defaultOverridePins)
            anchors.append(AppTrustAnchor(source: source, overridePins: override, line: entry.line))
        }
        return anchors
    }

    private func boolean(_ node: XMLNode, _ attribute: String, default fallback: Bool) throws(AppPinConfigurationError) -> Bool {
        guard let text = node.attributes[attribute] else { return fallback }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw error(node, "\(attribute)=\"\(text)\" is not true or false")
        }
    }
}
