/// Why a HAR file was refused, with the JSON path of the offending member where there is one
/// (`log.entries[3].response.status: expected a number, got a string`).
public struct HARReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member's path; empty for the document as a whole.
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
