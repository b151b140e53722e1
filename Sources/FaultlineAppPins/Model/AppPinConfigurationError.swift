/// Why an app configuration cannot be used, naming the file, the key path and the line:
/// `Info.plist: NSAppTransportSecurity.NSPinnedDomains["api.example.com"].NSPinnedLeafIdentities[0].SPKI-SHA256-BASE64: not base64 of 32 bytes (line 14)`.
public struct AppPinConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as given.
    public let file: String
    /// The key path (empty when the whole file is at fault).
    public let keyPath: String
    /// What is wrong.
    public let problem: String
    /// Where.
    public let location: AppPinLocation

    /// Creates an error.
    public init(file: String, keyPath: String, problem: String, location: AppPinLocation) {
        self.file = file
        self.keyPath = keyPath
        self.problem = problem
        self.location = location
    }

    /// The one-line message.
    public var description: String {
        let path = keyPath.isEmpty ? "" : "\(keyPath): "
        return "\(file): \(path)\(problem)\(location.suffix)"
    }
}
