extension HAREntryEncoder {
    /// Writes the members of HAR's `request` object.
    func writeRequest(_ request: inout HARJSONWriter) {
        request.member("method", record.method ?? "GET")
        request.member("url", url)
        request.member("httpVersion", httpVersion)
        request.member("cookies", array: { cookies in
            for cookie in HARCookie.requestCookies(record.requestHeaders) { cookie.write(to: &cookies) }
        })
        request.member("headers", pairs: record.requestHeaders.map { ($0.name, $0.value) })
        request.member("queryString", pairs: HARQueryString.parameters(record.query))
        if let body = record.requestBody {
            request.member("postData", object: { post in
                post.member("mimeType", Self.header("content-type", in: record.requestHeaders) ?? "")
                post.member("params", array: { _ in })
                post.member("text", body)
            })
        }
        // The record keeps header fields, not the head's exact bytes: -1 is HAR's "unknown".
        request.member("headersSize", -1)
        request.member("bodySize", record.requestBodySize ?? 0)
    }

    /// `scheme://host[:port]path[?query]`, the port left out when it is the scheme's default.
    var url: String {
        let scheme = record.scheme ?? "http"
        var host = record.host ?? "localhost"
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        var url = "\(scheme)://\(host)"
        if let port = record.serverPort, port != Self.defaultPort(scheme) { url += ":\(port)" }
        let path = record.path ?? ""
        url += path.hasPrefix("/") ? path : "/" + path
        if let query = record.query, !query.isEmpty { url += "?" + query }
        return url
    }

    private static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
