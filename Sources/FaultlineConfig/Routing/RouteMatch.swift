/// The conditions of a route; a nil or empty condition matches anything. All conditions
/// must hold (docs/config.md, "Matching").
public struct RouteMatch: Sendable, Equatable {
    /// Host the request must be addressed to.
    public let host: HostPattern?
    /// Accepted methods, compared case-sensitively.
    public let methods: [String]?
    /// Path condition (query excluded).
    public let path: PathPattern?
    /// Header conditions (names lowercased); all must hold.
    public let headers: [FieldCondition]
    /// Query parameter conditions; all must hold.
    public let query: [FieldCondition]
    /// Cookie conditions; all must hold.
    public let cookies: [FieldCondition]
    /// Client address blocks; empty accepts every client, otherwise one must contain it.
    public let client: [ClientNetwork]
    /// Request body conditions by JSON Pointer (the name); all must hold on a JSON body of at
    /// most `limits.max_match_body_bytes`.
    public let json: [FieldCondition]
    /// Holds the `not` match (zero or one element: an array gives the recursion its storage).
    private let negation: [RouteMatch]

    /// A match that must not hold for the route to take the request.
    public var not: RouteMatch? { negation.first }

    /// Whether the match has conditions beyond host, methods and path.
    var hasRequestConditions: Bool {
        !headers.isEmpty || !query.isEmpty || !cookies.isEmpty || !client.isEmpty || !json.isEmpty || !negation.isEmpty
    }

    /// Whether the match, or its `not`, has `json` conditions: the proxy then reads a
    /// request's body before routing it.
    public var readsBody: Bool {
        !json.isEmpty || negation.contains(where: \.readsBody)
    }

    /// Creates a match; the default matches every request.
    public init(host: HostPattern? = nil, methods: [String]? = nil, path: PathPattern? = nil,
                headers: [FieldCondition] = [], query: [FieldCondition] = [], cookies: [FieldCondition] = [],
                client: [ClientNetwork] = [], json: [FieldCondition] = [], not: RouteMatch? = nil) {
        self.host = host
        self.methods = methods
        self.path = path
        self.headers = headers
        self.query = query
        self.cookies = cookies
        self.client = client
        self.json = json
        self.negation = not.map { [$0] } ?? []
    }
}
