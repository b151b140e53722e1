import Foundation
import Testing

/// One row of the HTTP/2 fault → client table: a fault on a catch-all route, the request,
/// and what curl `--http2`, nghttp and URLSession (all over TLS, ALPN h2) must report. The
/// row of `docs/fault-table.md` is rendered from these expectations (`markdownRow`), so the
/// document says exactly what the test asserts.
struct H2FaultCase: Sendable, CustomTestStringConvertible {
    /// What URLSession must report.
    enum Session: Sendable {
        /// A response with this status and body length.
        case response(status: Int, bytes: Int)
        /// An NSError with this code whose description contains `message`.
        case error(code: Int, message: String)
    }

    /// Requests the proxy saw from each client (a client that retries sends more than one).
    struct Attempts: Sendable, Equatable {
        var curl = 1
        var nghttp = 1
        var session = 1
    }

    /// The fault as the docs show it (config text and a note).
    let label: String
    let route: String
    /// The fault object as JSON text.
    let fault: String
    let path: String
    /// Client timeout in seconds.
    var timeout: Int = 5
    let curlExit: Int32
    /// A stable part of curl's message ("" on success).
    var curlMessage: String = ""
    /// `%{http_code}` (0 when no head arrived).
    let curlStatus: Int
    /// Body bytes curl kept, when checked.
    var curlBytes: Int? = nil
    /// curl's `time_total`, when checked.
    var seconds: ClosedRange<Double>? = nil
    /// `H2FaultClients.summarize` of nghttp's output, exactly.
    let nghttp: String
    let session: Session
    var attempts = Attempts()
    /// `http2.error_code` and `http2.error_frame` of every record of the row (nil: absent).
    var recordError: (code: String, frame: String)? = nil
    /// `X-Faultline-Fault` on the response head, when one arrives.
    var marker: String? = nil
    /// A response field URLSession must deliver (name lowercased).
    var field: (name: String, value: String)? = nil
    /// Whether curl may report no head although one was sent: when the HEADERS frame and the
    /// stream's error arrive in one read, curl's nghttp2 ends the stream before curl hands
    /// the buffered head to the transfer (status 0, no header fields). Which happens depends
    /// on how the kernel batches the frames, not on Faultline, which sent the same frames.
    var curlHeadMayBeLost = false

    var testDescription: String { label }

    /// The row of the HTTP/2 table in `docs/fault-table.md`.
    var markdownRow: String {
        let curl: String
        if curlExit == 0 {
            curl = "exit 0, HTTP/2 \(curlStatus)" + (curlBytes.map { ", \($0) bytes" } ?? "")
        } else {
            curl = "**\(curlExit)** `\(curlMessage)`" + (curlStatus != 0 ? ", HTTP/2 \(curlStatus)" : "")
                + (curlBytes.map { ", \($0) body bytes" } ?? "")
        }
        let sessionText: String
        switch session {
        case let .response(status, bytes): sessionText = "no error: \(status), \(bytes) bytes"
        case let .error(code, message): sessionText = "**\(code)** `\(message)`"
        }
        let requests = "\(attempts.curl) / \(attempts.nghttp) / \(attempts.session)"
        let record = recordError.map { "`\($0.code)` (\($0.frame))" } ?? "—"
        return "| \(label) | `GET \(path)` | \(curl) | `\(nghttp)` | \(sessionText) | \(requests) | \(record) |"
    }

    /// The header of the HTTP/2 table.
    static let markdownHeader = """
        | fault (config) | request | curl `--http2`: exit code and message | nghttp: what it printed about the stream | URLSession on Linux over h2: NSError code and description | requests the proxy saw (curl / nghttp / URLSession) | log `http2.error_code` |
        |---|---|---|---|---|---|---|
        """
}
