import Foundation

/// Reads a configuration file whole, turning I/O failures into configuration errors.
enum AppPinFile {
    /// The bytes of `path`.
    static func contents(of path: String) throws(AppPinConfigurationError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw AppPinConfigurationError(file: path, keyPath: "", problem: exists ? "cannot be read" : "no such file",
                                           location: .unknown)
        }
        return data
    }
}
