/// Why the session refused a header block before handing it out.
public enum HTTP2Refusal: Sendable, Equatable, CustomStringConvertible {
    /// The fields exceed `HTTP2Settings.maxHeaderListSize` (RFC 9113 §6.5.2 accounting).
    case headerListTooLarge

    /// Short text for logs.
    public var description: String {
        switch self {
        case .headerListTooLarge: "header list larger than SETTINGS_MAX_HEADER_LIST_SIZE"
        }
    }
}
