import Foundation

/// Reads any supported app configuration (at most 1 MiB), picking the reader from the
/// file's structure (`AppPinFileKind`, over the whole file): an XML document whose root
/// element is `network-security-config` is Android; a property list with `TSKConfiguration`
/// is TrustKit, one with `NSAppTransportSecurity.NSPinnedDomains` ATS (a plist holding
/// both yields both); a JSON object is TrustKit; XML with any other root is refused;
/// `.kt`, `.kts`, `.java` and anything else is OkHttp.
public enum AppPinReader {
    /// The configurations in the file at `path`; `platform` forces a reader.
    public static func read(path: String, platform: AppPlatform? = nil) throws(AppPinConfigurationError) -> [AppPinConfiguration] {
        switch platform {
        case .ats?: return [try ATSPlistReader.read(path: path)]
        case .android?: return [try AndroidConfigReader.read(path: path)]
        case .trustKit?: return [try TrustKitReader.read(path: path)]
        case .okHttp?: return [try OkHttpPinnerReader.read(path: path)]
        case nil: break
        }
        return try read(data: AppPinFile.contents(of: path), file: path)
    }

    /// The configurations in `data`, read from the file `file` (whose extension tells OkHttp
    /// source from a list).
    public static func read(data: Data, file path: String) throws(AppPinConfigurationError) -> [AppPinConfiguration] {
        switch AppPinFileKind.of(data) {
        case .json: return [try TrustKitReader.read(data: data, file: path)]
        case .xml(root: "network-security-config"?): return [try AndroidConfigReader.read(data: data, file: path)]
        case .xml(root: "plist"?), .binaryPlist: break
        case .xml(let root):
            let found = root.map { "its root element is <\($0)>" } ?? "no root element follows its prolog"
            throw AppPinConfigurationError(file: path, keyPath: "", problem: "an XML document, but \(found): expected "
                + "<network-security-config> (Android) or <plist> (an Info.plist)", location: .unknown)
        case .other: return [try OkHttpPinnerReader.read(data: data, path: path)]
        }
        let document = try PlistDocument.plist(data, file: path)
        let root = try document.dictionary(document.root, at: .root)
        var configurations: [AppPinConfiguration] = []
        if root["NSAppTransportSecurity"] != nil { configurations.append(try ATSPlistReader.read(document)) }
        if root["TSKConfiguration"] != nil { configurations.append(try TrustKitReader.read(document)) }
        guard !configurations.isEmpty else {
            throw document.error(.root, "neither NSAppTransportSecurity nor TSKConfiguration: no pins in this Info.plist")
        }
        return configurations
    }
}
