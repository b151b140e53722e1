#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes the files certificates and keys live in, with errors that name them.
enum CertificateFile {
    /// The whole content of `path`.
    static func read(_ path: String) throws(CertificateError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CertificateError("\(path): cannot open: \(reason(errno))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk.prefix(count))
                guard bytes.count <= 16 << 20 else { throw CertificateError("\(path): larger than 16 MiB, not a certificate or key") }
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw CertificateError("\(path): cannot read: \(reason(errno))")
            }
        }
    }

    /// Writes `text` to `path` (replacing it) with permissions `mode`, which also applies
    /// to a file that already existed.
    static func write(_ text: String, to path: String, mode: UInt32) throws(CertificateError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw CertificateError("\(path): cannot create: \(reason(errno))") }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { throw CertificateError("\(path): cannot set permissions: \(reason(errno))") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if errno != EINTR {
                throw CertificateError("\(path): cannot write: \(reason(errno))")
            }
        }
    }

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates `path` (and parents) as a directory if missing.
    static func makeDirectory(_ path: String) throws(CertificateError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw CertificateError("\(prefix): cannot create directory: \(reason(errno))")
            }
            prefix += "/"
        }
    }

    private static func reason(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
