import FaultlineIO

/// Writes lines to stdout and stderr, unbuffered, from any thread.
enum Console {
    /// A line on standard output.
    static func out(_ line: String) {
        write(BlockingIO.standardOutput, line + "\n")
    }

    /// A line on standard error.
    static func err(_ line: String) {
        write(BlockingIO.standardError, line + "\n")
    }

    /// A closed stream loses the line: there is nowhere left to say so.
    private static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            try? BlockingIO.writeAll(fd, UnsafeRawBufferPointer(bytes))
        }
    }
}
