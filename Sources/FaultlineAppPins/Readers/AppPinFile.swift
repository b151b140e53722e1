import Foundation

/// Reads a configuration file whole, up to `maximumSize`, turning I/O failures into
/// configuration errors. Real pin configurations are a few KiB; the limit keeps a wrong
/// file (a build artefact, a log) from being read into memory and scanned at every
/// snapshot the proxy compiles.
public enum AppPinFile {
    /// The largest app pin file read: 1 MiB.
    public static let maximumSize = 1 << 20

    /// The bytes of `path`; refused, naming the file and the limit, past `maximumSize`.
    public static func contents(of path: String) throws(AppPinConfigurationError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw error(path, exists ? "cannot be read" : "no such file")
        }
        defer { try? handle.close() }
        var info = stat()
        if fstat(handle.fileDescriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > Int64(maximumSize) {
            throw tooLarge(path, size: Int64(info.st_size))
        }
        // The size may change after fstat, and a pipe has none: read one byte past the limit.
        let data: Data
        do {
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw Self.error(path, "cannot be read")
        }
        guard data.count <= maximumSize else { throw tooLarge(path, size: nil) }
        return data
    }

    private static func tooLarge(_ path: String, size: Int64?) -> AppPinConfigurationError {
        let measured = size.map { "\($0) bytes, larger" } ?? "larger"
        return error(path, "\(measured) than the 1 MiB (\(maximumSize)-byte) limit for an app pin file")
    }

    private static func error(_ path: String, _ problem: String) -> AppPinConfigurationError {
        AppPinConfigurationError(file: path, keyPath: "", problem: problem, location: .unknown)
    }
}
