import Foundation

/// Checks that a file named by the configuration can be opened for reading, so a typo in
/// a certificate path fails at load with the system's reason instead of at first use.
enum ConfigFileCheck {
    /// Why `path` cannot be read (e.g. "No such file or directory"), or nil when it can.
    static func problem(readingFileAt path: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return String(cString: strerror(EISDIR))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        close(descriptor)
        return nil
    }
}
