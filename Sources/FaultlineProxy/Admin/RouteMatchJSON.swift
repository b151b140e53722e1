import FaultlineConfig

/// A rule's `match` object; `{}` matches every request.
final class RouteMatchJSON: Encodable, Sendable {
    let host: String?
    let methods: [String]?
    let path: String?
    let pathPrefix: String?
    let pathGlob: String?
    let headers: [String: FieldConditionJSON]?
    let query: [String: FieldConditionJSON]?
    let cookies: [String: FieldConditionJSON]?
    let client: [String]?
    let json: [String: FieldConditionJSON]?
    let not: RouteMatchJSON?

    enum CodingKeys: String, CodingKey {
        case host
        case methods
        case path
        case pathPrefix = "path_prefix"
        case pathGlob = "path_glob"
        case headers
        case query
        case cookies
        case client
        case json
        case not
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
        headers = RouteMatchJSON.fields(match.headers)
        query = RouteMatchJSON.fields(match.query)
        cookies = RouteMatchJSON.fields(match.cookies)
        client = match.client.isEmpty ? nil : match.client.map(\.description)
        json = RouteMatchJSON.fields(match.json)
        not = match.not.map(RouteMatchJSON.init)
    }

    private static func fields(_ conditions: [FieldCondition]) -> [String: FieldConditionJSON]? {
        guard !conditions.isEmpty else { return nil }
        return Dictionary(conditions.map { ($0.name, FieldConditionJSON($0.condition)) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One condition as config writes it: a string, `true` or `false`.
struct FieldConditionJSON: Encodable {
    let condition: ValueCondition

    init(_ condition: ValueCondition) {
        self.condition = condition
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch condition {
        case .equals(let text), .glob(let text): try container.encode(text)
        case .present: try container.encode(true)
        case .absent: try container.encode(false)
        }
    }
}
