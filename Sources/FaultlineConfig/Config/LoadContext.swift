import Foundation

/// What one validation pass needs beyond the JSON: where relative file paths start,
/// whether referenced files are checked, the time that pin expiry is judged against,
/// and the warnings collected on the way.
struct LoadContext {
    /// Directory that relative paths are resolved against; nil keeps them as written.
    let baseDirectory: String?
    /// Whether certificate, key and CA files must exist and be readable.
    let checkFiles: Bool
    /// "Now" for expiry warnings.
    let now: Date
    /// Which files body paths may name (confined for admin API rules).
    let confinement: FileConfinement
    /// The process environment, for `admin.token_env` (a parameter, so tests give their own).
    let environment: [String: String]
    /// Warnings met so far, in document order.
    private(set) var warnings: [ConfigWarning] = []

    init(baseDirectory: String?, checkFiles: Bool, now: Date, confinement: FileConfinement = .unconfined,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        self.baseDirectory = baseDirectory
        self.checkFiles = checkFiles
        self.now = now
        self.confinement = confinement
    }

    /// Records a warning at `path`.
    mutating func warn(_ path: String, _ message: String) {
        warnings.append(ConfigWarning(path: path, message: message))
    }

    /// `path` resolved against the base directory when it is relative.
    func resolve(_ path: String) -> String {
        guard let baseDirectory, !path.hasPrefix("/") else { return path }
        return baseDirectory.hasSuffix("/") ? baseDirectory + path : baseDirectory + "/" + path
    }
}
