public import FaultlineHTTP

/// Why a request or response that nghttp2 accepted cannot become an HTTP/1.1 message: the
/// checks of RFC 9113 §8.2 and §8.3 nghttp2 leaves to the application. The proxy treats it as
/// malformed (RFC 9113 §8.1.1: a stream error of type PROTOCOL_ERROR).
public enum HTTP2MessageViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The block is not a request (or not a response) head.
    case notAHead
    /// `:method`, `:path` or `:status` is missing.
    case missingPseudoHeader(String)
    /// `:path` is neither absolute (`/…`) nor `*` on an OPTIONS request.
    case invalidPath
    /// `:authority` is not `host[:port]` (userinfo is not allowed in HTTP/2).
    case invalidAuthority
    /// A Host field names another authority than `:authority` (RFC 9113 §8.3.1).
    case hostConflictsWithAuthority
    /// The head fails the checks an HTTP/1.1 head gets (`HTTPHead.validateRequest`).
    case head(HTTPHeadViolation)

    /// Short text for the log.
    public var description: String {
        switch self {
        case .notAHead: "header block is not a message head"
        case .missingPseudoHeader(let name): "missing \(name)"
        case .invalidPath: "invalid :path"
        case .invalidAuthority: "invalid :authority"
        case .hostConflictsWithAuthority: "Host conflicts with :authority"
        case .head(let violation): violation.description
        }
    }
}
