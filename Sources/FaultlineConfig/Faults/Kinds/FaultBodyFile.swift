import Foundation

/// Reads the file behind a status fault's `body_file`, safely: only a regular file (a FIFO
/// would block the reader until a writer came, a device like /dev/zero never ends), at most
/// `maxBytes`, opened with O_NONBLOCK so that a file swapped for a FIFO after it was checked
/// still cannot block. Used both when a config is loaded and when a snapshot reads the body.
public enum FaultBodyFile {
    /// The largest body file accepted (1 MiB): bodies are held in memory per snapshot.
    public static let maxBytes = 1 << 20

    /// Why a body file was refused.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// A readable reason, e.g. "not a regular file (a FIFO)".
        public let description: String
    }

    /// The file's bytes, or why it cannot be a body. With `root` (a rule from the admin API),
    /// the file actually opened must lie inside that directory: checked on the open
    /// descriptor, so a link swapped in since the rule was accepted cannot lead out.
    public static func read(_ path: String, within root: String? = nil) -> Result<[UInt8], Problem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Problem(description: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        if let root, let problem = outside(descriptor, root) { return .failure(problem) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(Problem(description: String(cString: strerror(errno)))) }
        if let problem = problem(mode: info.st_mode, size: Int64(info.st_size)) { return .failure(problem) }
        // The size may change between fstat and read: read at most one byte past the limit.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return .failure(Problem(description: String(cString: strerror(errno)))) }
            if got == 0 { break }
            count += got
            if count > maxBytes { return .failure(tooLarge(Int64(count))) }
        }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }

    /// Why `path` cannot be a body file, judged from `stat` without opening it (opening a FIFO
    /// for reading blocks until a writer comes); nil when it can.
    public static func problem(at path: String) -> Problem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return Problem(description: String(cString: strerror(errno))) }
        return problem(mode: info.st_mode, size: Int64(info.st_size))
    }

    /// Why the file open on `descriptor` is not inside `root`, if it is not.
    private static func outside(_ descriptor: Int32, _ root: String) -> Problem? {
        guard let opened = realPath("/proc/self/fd/\(descriptor)"), let base = realPath(root) else {
            return Problem(description: "cannot tell where it resolves to")
        }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return opened.hasPrefix(prefix) ? nil
            : Problem(description: "admin rules may only name files inside the config directory (\(base)); it resolves to \(opened)")
    }

    /// `path` with every link and `..` resolved, or nil (errno says why).
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func problem(mode: mode_t, size: Int64) -> Problem? {
        switch mode & S_IFMT {
        case S_IFREG:
            return size > Int64(maxBytes) ? tooLarge(size) : nil
        case S_IFDIR: return Problem(description: "not a regular file (a directory)")
        case S_IFIFO: return Problem(description: "not a regular file (a FIFO)")
        case S_IFCHR: return Problem(description: "not a regular file (a character device)")
        case S_IFBLK: return Problem(description: "not a regular file (a block device)")
        case S_IFSOCK: return Problem(description: "not a regular file (a socket)")
        default: return Problem(description: "not a regular file")
        }
    }

    private static func tooLarge(_ size: Int64) -> Problem {
        Problem(description: "\(size) bytes, larger than the \(maxBytes)-byte limit for a fault body")
    }
}
