import Foundation

/// An answer of the admin API: JSON, but for `GET /metrics`.
struct AdminResponse: Sendable {
    let status: Int
    let body: [UInt8]
    /// The body's media type.
    var contentType = "application/json"
    /// Fields besides Content-Type, Content-Length and `AdminSecurityHeaders.common`.
    var headers: [(StaticString, String)] = [("Content-Security-Policy", AdminSecurityHeaders.apiPolicy)]

    /// `value` encoded as JSON: sorted keys (so answers are stable for diffs and tests),
    /// indented, slashes as they are, and a final newline.
    static func json(_ status: Int, _ value: some Encodable) -> AdminResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{\"error\": \"response could not be encoded\"}".utf8)
        return AdminResponse(status: status, body: Array(data) + [10])
    }

    /// `{"error": message}` with `status`.
    static func error(_ status: Int, _ message: String) -> AdminResponse {
        json(status, AdminBody.Failure(error: message))
    }
}
