/// Which message of an exchange a header or body belongs to.
public enum LogDirection: String, Sendable {
    /// The client's request (forwarded upstream).
    case request
    /// The response (from the upstream or a fault).
    case response
}
