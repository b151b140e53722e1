/// What one curl invocation produced.
struct CurlResult: Sendable {
    /// curl's exit code (0 success, 18 partial file, 28 timeout, 52 empty reply, 56 receive error...).
    let exitCode: Int32
    let stdout: [UInt8]
    let stderr: String

    var text: String { String(decoding: stdout, as: UTF8.self) }
}
