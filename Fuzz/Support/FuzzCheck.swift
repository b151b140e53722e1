#if canImport(Glibc)
import Glibc
#endif

/// Invariant checks for fuzz targets: a broken invariant prints what was wrong, with the
/// offending bytes escaped, and aborts, which libFuzzer records as a crash with its input.
enum FuzzCheck {
    /// Aborts with `message` when `condition` is false.
    static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fail(message()) }
    }

    /// Prints `message` to stderr and aborts.
    static func fail(_ message: String) -> Never {
        let line = "INVARIANT BROKEN: \(message)\n"
        var bytes = Array(line.utf8)
        _ = write(2, &bytes, bytes.count)
        abort()
    }

    /// `bytes` as a readable, escaped, single-line string (at most `limit` bytes shown).
    static func show(_ bytes: some Collection<UInt8>, limit: Int = 600) -> String {
        var out = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case 13: out += "\\r"
            case 10: out += "\\n"
            case 9: out += "\\t"
            case 34: out += "\\\""
            case 92: out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        if bytes.count > limit { out += "…" }
        return out + "\""
    }

    /// `text` escaped as by `show(_:)`.
    static func show(_ text: String, limit: Int = 600) -> String {
        show(Array(text.utf8), limit: limit)
    }
}
