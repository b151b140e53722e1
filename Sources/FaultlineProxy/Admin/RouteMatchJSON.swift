import FaultlineConfig

/// A rule's `match` object; `{}` matches every request.
struct RouteMatchJSON: Encodable {
    let host: String?
    let methods: [String]?
    let path: String?
    let pathPrefix: String?
    let pathGlob: String?

    enum CodingKeys: String, CodingKey {
        case host
        case methods
        case path
        case pathPrefix = "path_prefix"
        case pathGlob = "path_glob"
    }

    init(_ match: RouteMatch) {
        host = match.host?.description
        methods = match.methods
        switch match.path {
        case .exact(let path)?: (self.path, pathPrefix, pathGlob) = (path, nil, nil)
        case .prefix(let path)?: (self.path, pathPrefix, pathGlob) = (nil, path, nil)
        case .glob(let path)?: (self.path, pathPrefix, pathGlob) = (nil, nil, path)
        case nil: (path, pathPrefix, pathGlob) = (nil, nil, nil)
        }
    }
}
