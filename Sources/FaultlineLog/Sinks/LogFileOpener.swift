#if canImport(Glibc)
import Glibc
#endif

/// Opens log files: append-only, close-on-exec, created 0640, parent directories
/// created 0750 when missing.
enum LogFileOpener {
    /// A descriptor open for appending to `path`.
    static func open(_ path: String) throws(LogSinkError) -> Int32 {
        guard !path.isEmpty else { throw LogSinkError("cannot open log file", path: path, code: ENOENT) }
        makeParents(of: path)
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw LogSinkError("cannot open log file", path: path, code: errno) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFIFO,
           info.st_mode & S_IFMT != S_IFCHR {
            Glibc.close(fd)
            throw LogSinkError("cannot open log file", path: path, code: EISDIR)
        }
        return fd
    }

    /// Creates missing directories above `path` (errors surface when the file is opened).
    private static func makeParents(of path: String) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !components.isEmpty else { return }
        var current = path.hasPrefix("/") ? "" : "."
        if path.hasPrefix("/") { components = components.dropFirst() }
        for component in components where !component.isEmpty {
            current += "/" + component
            _ = mkdir(current, 0o750)
        }
    }
}
