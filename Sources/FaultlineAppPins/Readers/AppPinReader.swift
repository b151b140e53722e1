import Foundation

/// Reads any supported app configuration, picking the reader from the file: an XML whose
/// root is `network-security-config` is Android; a property list with `TSKConfiguration`
/// is TrustKit, one with `NSAppTransportSecurity.NSPinnedDomains` ATS (a plist holding
/// both yields both); JSON is TrustKit; `.kt`, `.kts`, `.java` and anything else is OkHttp.
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
        let data = try AppPinFile.contents(of: path)
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace }
        if trimmed.hasPrefix("{") { return [try TrustKitReader.read(data: data, file: path)] }
        if head.contains("<network-security-config") { return [try AndroidConfigReader.read(data: data, file: path)] }
        guard data.starts(with: Array("bplist".utf8)) || head.contains("<plist") else {
            return [try OkHttpPinnerReader.read(path: path)]
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
