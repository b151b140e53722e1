import Foundation

/// A HAR 1.2 document as browsers, Charles, Proxyman and Faultline export it, decoded with
/// only the members `faultline scenario from-har` reads. Tolerant where exporters differ:
/// most members are optional, timings may be `-1` or missing, an aborted request has status
/// `0`, no response, or an `_error` string (Chrome, Firefox, Proxyman).
public struct HARInput: Decodable, Sendable {
    /// `log`.
    public let log: Log

    /// `log`: the entries; creator, pages and the rest are ignored.
    public struct Log: Decodable, Sendable {
        public let entries: [Entry]
    }

    /// One request and what became of it.
    public struct Entry: Decodable, Sendable {
        /// ISO 8601 start, with or without fractional seconds.
        public let startedDateTime: String?
        /// Total milliseconds; `-1` or missing when unknown.
        public let time: Double?
        public let request: Request
        public let response: Response?
        public let timings: Timings?
        /// Why the request got no answer: Chrome's and Proxyman's string, Faultline's object.
        public let error: ErrorText?

        enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, timings
            case error = "_error"
        }
    }

    public struct Request: Decodable, Sendable {
        public let method: String
        public let url: String
        public let postData: PostData?
    }

    public struct PostData: Decodable, Sendable {
        public let mimeType: String?
        public let text: String?
    }

    public struct Response: Decodable, Sendable {
        /// A number in every exporter seen; `0` for an aborted request.
        public let status: Double?
        public let headers: [Header]?
        public let content: Content?
        public let error: ErrorText?

        enum CodingKeys: String, CodingKey {
            case status, headers, content
            case error = "_error"
        }
    }

    /// `_error`: a string (`"net::ERR_CONNECTION_RESET"`), or Faultline's `{"type", "message"}`;
    /// any other shape still says that there was an error.
    public struct ErrorText: Decodable, Sendable {
        public let text: String

        private enum CodingKeys: String, CodingKey { case type, message }

        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self.text = text
            } else if let object = try? decoder.container(keyedBy: CodingKeys.self) {
                let parts = [try? object.decodeIfPresent(String.self, forKey: .type),
                             try? object.decodeIfPresent(String.self, forKey: .message)].compactMap { $0 }.compactMap { $0 }
                text = parts.isEmpty ? "error" : parts.joined(separator: ": ")
            } else {
                text = "error"
            }
        }
    }

    public struct Header: Decodable, Sendable {
        public let name: String
        public let value: String
    }

    public struct Content: Decodable, Sendable {
        public let mimeType: String?
        public let text: String?
        /// `"base64"` when `text` is base64 of the body.
        public let encoding: String?
    }

    /// Phase timings in ms; `-1` means "does not apply".
    public struct Timings: Decodable, Sendable {
        public let blocked: Double?
        public let dns: Double?
        public let connect: Double?
        public let send: Double?
        public let wait: Double?
        public let receive: Double?
    }
}
