#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole configuration file with plain syscalls so an unreadable file is reported
/// with errno's words rather than OpenSSL's generic "system lib".
enum TLSFileReader {
    /// The file's bytes, or an error naming the file, its role and the errno text.
    static func read(_ path: String, role: String) throws(TLSConfigurationError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw TLSConfigurationError(file: path, "cannot read \(role) \(path): \(errnoText(errno))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TLSConfigurationError(file: path, "cannot read \(role) \(path): \(errnoText(errno))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if bytes.isEmpty {
            throw TLSConfigurationError(file: path, "\(role) \(path) is empty")
        }
        return bytes
    }

    static func errnoText(_ code: Int32) -> String {
        if let text = strerror(code) { return String(cString: text) }
        return "errno \(code)"
    }
}
