import Foundation

/// A JSON answer of the admin API.
struct AdminResponse: Sendable {
    let status: Int
    let body: [UInt8]

    /// `object` serialized as JSON (sorted keys, so answers are stable for diffs and tests).
    static func json(_ status: Int, _ object: Any) -> AdminResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]))
            ?? Data("{\"error\": \"response could not be encoded\"}".utf8)
        return AdminResponse(status: status, body: Array(data) + [10])
    }

    /// `{"error": message}` with `status`.
    static func error(_ status: Int, _ message: String) -> AdminResponse {
        json(status, ["error": message])
    }
}
