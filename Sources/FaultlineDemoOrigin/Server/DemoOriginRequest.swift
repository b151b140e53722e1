import FaultlineHTTP
import FaultlineIO

/// A request head as the demo origin's routes see it.
struct DemoOriginRequest {
    /// The decoded head.
    let head: HTTPHead
    /// Who sent it.
    let peer: SocketAddress?
    /// The path, without query; origin-form even if the client sent absolute-form.
    let path: String
    /// The raw query, without `?` (empty if none).
    let query: Substring

    init(head: HTTPHead, peer: SocketAddress?) {
        self.head = head
        self.peer = peer
        var target = head.targetString[...]
        // Absolute-form (`http://host/path`) is legal in a request line; keep only the path.
        if target.first != "/", let scheme = target.firstRange(of: "://") {
            let rest = target[scheme.upperBound...]
            target = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let question = target.firstIndex(of: "?") {
            path = String(target[..<question])
            query = target[target.index(after: question)...]
        } else {
            path = String(target)
            query = ""
        }
    }

    /// The request method.
    var method: String { head.method }
    /// Whether the answer must carry no body.
    var isHead: Bool { head.method == "HEAD" }
    /// Whether the client speaks HTTP/1.0 (no chunked responses).
    var isHTTP10: Bool { head.versionMajor == 1 && head.versionMinor == 0 }
    /// Whether a body follows the head.
    var hasBody: Bool { (head.contentLength ?? 0) > 0 || head.isChunked }

    /// The first decoded value of query parameter `name`.
    func parameter(_ name: String) -> String? {
        DemoOriginQuery.parameters(query).first { $0.name == name }?.value
    }

    /// Whether query parameter `name` is set to a true-ish value (`1`, `true`, `yes`, or bare).
    func flag(_ name: String) -> Bool {
        guard let value = parameter(name) else { return false }
        return ["", "1", "true", "yes"].contains(value.lowercased())
    }

    /// Header fields as a JSON object, names lowercased (as HTTP/2 would deliver them) and
    /// repeated fields joined with ", ".
    var headersJSON: String {
        var order: [String] = []
        var values: [String: String] = [:]
        for (name, value) in head.headers.pairs {
            let key = name.lowercased()
            if let existing = values[key] {
                values[key] = existing + ", " + value
            } else {
                order.append(key)
                values[key] = value
            }
        }
        return DemoOriginJSON.object(order.map { ($0, values[$0] ?? "") })
    }
}
