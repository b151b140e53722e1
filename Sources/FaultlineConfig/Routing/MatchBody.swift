import Foundation

/// A request body read before routing for `json` conditions: at most
/// `limits.max_match_body_bytes`, parsed at most once per request, and only when a condition
/// asks. A body over the limit, or one that is not JSON, satisfies no condition (the request
/// is never refused for it).
public final class MatchBody {
    private enum Document {
        case unparsed([UInt8])
        case parsed(Any)
        /// Over the limit, or not JSON.
        case unusable
    }

    private var document: Document

    /// A whole body of at most the limit.
    public init(bytes: [UInt8]) {
        document = .unparsed(bytes)
    }

    /// A body that outgrew the limit (or was not read whole): no condition sees it.
    public static func overLimit() -> MatchBody {
        let body = MatchBody(bytes: [])
        body.document = .unusable
        return body
    }

    /// The parsed document, nil when the body is not JSON (or was over the limit).
    func parsed() -> Any? {
        switch document {
        case .parsed(let value):
            return value
        case .unusable:
            return nil
        case .unparsed(let bytes):
            // Bounded input (the limit); JSONSerialization refuses nesting deeper than it supports.
            guard !bytes.isEmpty,
                  let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
                document = .unusable
                return nil
            }
            document = .parsed(value)
            return value
        }
    }
}
