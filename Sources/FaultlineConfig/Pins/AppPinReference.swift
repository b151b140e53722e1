/// An app's own pin configuration file and the domain in it whose pins an upstream
/// enforces, with that platform's rules. Only the reference is kept here: the file is read
/// (and refused when unusable) each time a snapshot is compiled, so a reload picks up a
/// changed file.
public struct AppPinReference: Sendable, Equatable {
    /// The file, resolved against the config file's directory.
    public let file: String
    /// The path as written in the config, for messages.
    public let written: String
    /// The host name whose entry applies (lowercased, no trailing dot).
    public let domain: String
    /// Which reader applies; nil picks it from the file's contents.
    public let platform: AppPinPlatformName?
    /// The build variant (Android `debug-overrides`).
    public let build: AppPinBuildName
    /// Field path of the object that names the file (`upstreams.api.pins` or
    /// `upstreams.api.pins.candidate`), for messages.
    public let path: String

    /// Creates a reference.
    public init(file: String, written: String? = nil, domain: String, platform: AppPinPlatformName? = nil,
                build: AppPinBuildName = .release, path: String) {
        self.file = file
        self.written = written ?? file
        self.domain = domain
        self.platform = platform
        self.build = build
        self.path = path
    }
}
