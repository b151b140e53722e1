/// Which message of an exchange a header or body belongs to.
public enum LogDirection: String, Sendable {
    /// The client's request (forwarded upstream).
    case request
    /// The response (from the upstream or a fault).
    case response

    /// `<direction>.body`, what a redacted body field's name starts with: a literal, where an
    /// interpolation made a String on every captured body.
    var bodyField: String { self == .request ? "request.body" : "response.body" }
    /// `<direction>.body.`, the prefix of a redacted body member's field name.
    var bodyFieldPrefix: String { self == .request ? "request.body." : "response.body." }
    /// `<direction>.query.`, the prefix of a redacted query parameter's field name.
    var queryFieldPrefix: String { self == .request ? "request.query." : "response.query." }
    /// `<direction>.cookie.`, the prefix of a redacted cookie's field name.
    var cookieFieldPrefix: String { self == .request ? "request.cookie." : "response.cookie." }
}
