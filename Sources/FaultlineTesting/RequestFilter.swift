import Foundation

/// Which journal entries to return: every condition given must hold.
public struct RequestFilter: Sendable, Equatable {
    /// The request path without its query, exactly; or a prefix when it ends in `*`.
    public var path: String?
    /// The request method, e.g. `"GET"`.
    public var method: String?
    /// The name of the rule or route that took the request.
    public var route: String?
    /// The status the client got.
    public var status: Int?
    /// Only the newest `limit` matching entries.
    public var limit: Int?

    /// A filter; without arguments it matches every entry.
    public init(path: String? = nil, method: String? = nil, route: String? = nil, status: Int? = nil, limit: Int? = nil) {
        self.path = path
        self.method = method
        self.route = route
        self.status = status
        self.limit = limit
    }

    /// The query of `GET …/requests` for this filter.
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let route { items.append(URLQueryItem(name: "route", value: route)) }
        if let path { items.append(URLQueryItem(name: "path", value: path)) }
        if let method { items.append(URLQueryItem(name: "method", value: method)) }
        if let status { items.append(URLQueryItem(name: "status", value: String(status))) }
        if let limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        return items
    }
}
