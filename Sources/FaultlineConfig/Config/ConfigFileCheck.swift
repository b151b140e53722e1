import Foundation

/// Checks that a file named by the configuration can be opened for reading, so a typo in
/// a certificate path fails at load with the system's reason instead of at first use.
enum ConfigFileCheck {
    /// Why `path` cannot be read (e.g. "No such file or directory"), or nil when it can.
    /// Opened with O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    static func problem(readingFileAt path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return String(cString: strerror(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return String(cString: strerror(EISDIR))
        default: return "not a regular file"
        }
    }
}
