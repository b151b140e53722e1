/// Where a chain's trust anchor comes from, in Android's terms: the system store, the
/// user-installed store (a debugging proxy's CA, a company CA), or a certificate bundled in
/// the app (`@raw/name`).
public enum AppTrustAnchorSource: Sendable, Hashable, CustomStringConvertible {
    /// Pre-installed system CAs (`src="system"`).
    case system
    /// User-added CAs (`src="user"`).
    case user
    /// A bundled resource such as `@raw/my_ca` (`src="@raw/my_ca"`).
    case resource(String)

    /// Parses a `src` attribute value; nil when it is none of the forms Android accepts.
    public init?(attribute: String) {
        switch attribute {
        case "system": self = .system
        case "user": self = .user
        default:
            guard attribute.hasPrefix("@"), attribute.count > 1 else { return nil }
            self = .resource(attribute)
        }
    }

    /// `system`, `user` or the resource name.
    public var description: String {
        switch self {
        case .system: "system"
        case .user: "user"
        case .resource(let name): name
        }
    }
}
