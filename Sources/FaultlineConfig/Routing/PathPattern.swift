/// A condition on the request path (without the query string).
public enum PathPattern: Sendable, Equatable, CustomStringConvertible {
    /// The path must equal this string byte for byte.
    case exact(String)
    /// The path must start with this string (a plain byte prefix: `/users` also takes `/users2`).
    case prefix(String)
    /// `*` matches any run of bytes including `/`, `?` matches exactly one byte, all else is literal.
    case glob(String)

    /// The config key and value, e.g. `path_prefix "/users"`.
    public var description: String {
        switch self {
        case .exact(let path): "path \"\(path)\""
        case .prefix(let path): "path_prefix \"\(path)\""
        case .glob(let path): "path_glob \"\(path)\""
        }
    }
}
