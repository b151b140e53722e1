public import Foundation

/// Reads Android's `network_security_config.xml`: nested `domain-config`s with their
/// `domain`s, `pin-set`s and `trust-anchors`, the `base-config` anchors and the
/// `debug-overrides` anchors. What Android's parser rejects (an unknown digest, a digest of
/// the wrong length, a malformed expiration, a duplicate domain…) is rejected here with the
/// element path and line.
public enum AndroidConfigReader {
    /// Reads the file at `path`.
    public static func read(path: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        try read(data: AppPinFile.contents(of: path), file: path)
    }

    /// Reads a document held in memory; `file` names it in errors.
    public static func read(data: Data, file: String) throws(AppPinConfigurationError) -> AppPinConfiguration {
        let root: XMLNode
        switch XMLNode.parse(data) {
        case .success(let node): root = node
        case .failure(let error):
            // The parser's own failures carry no detail; what was refused before parsing does.
            let detail = error.message == XMLSyntaxError.first(at: 0).message ? "" : ": \(error.message)"
            throw AppPinConfigurationError(file: file, keyPath: "", problem: "not well-formed XML\(detail)",
                                           location: .line(error.line))
        }
        var context = AndroidReadContext(file: file)
        guard root.name == "network-security-config" else {
            throw context.error(root, "the root element must be network-security-config")
        }
        let bases = root.children("base-config")
        let debugs = root.children("debug-overrides")
        if bases.count > 1 { throw context.error(bases[1], "only one base-config is allowed") }
        if debugs.count > 1 { throw context.error(debugs[1], "only one debug-overrides is allowed") }
        var baseAnchors: [AppTrustAnchor]?
        if let base = bases.first { baseAnchors = try context.plainConfig(base, defaultOverridePins: false) }
        var debugAnchors: [AppTrustAnchor]?
        if let debug = debugs.first {
            debugAnchors = try context.plainConfig(debug, defaultOverridePins: true) ?? []
            context.warnings.append("\(debug.path): applies to debuggable builds only; ignored for release builds (line \(debug.line))")
        }
        var domains: [AppPinDomain] = []
        for config in root.children("domain-config") {
            domains += try context.domainConfig(config, inheritedPins: nil, inheritedAnchors: baseAnchors)
        }
        return AppPinConfiguration(platform: .android, file: file, domains: domains,
                                   overrides: AppPinOverrides(baseTrustAnchors: baseAnchors, debugTrustAnchors: debugAnchors),
                                   warnings: context.warnings)
    }
}
