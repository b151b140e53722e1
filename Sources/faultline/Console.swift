#if canImport(Glibc)
import Glibc
#endif

/// Writes lines to stdout and stderr, unbuffered, from any thread.
enum Console {
    /// A line on standard output.
    static func out(_ line: String) {
        write(1, line + "\n")
    }

    /// A line on standard error.
    static func err(_ line: String) {
        write(2, line + "\n")
    }

    private static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
