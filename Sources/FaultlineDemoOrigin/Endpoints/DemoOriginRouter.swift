/// Maps a request head to what the demo origin answers; pure, so routes are unit-testable.
enum DemoOriginRouter {
    /// Largest `/bytes/{n}`: 4 GiB.
    static let maxBytes: UInt64 = 1 << 32
    /// Longest `/delay/{ms}`.
    static let maxDelayMilliseconds = 60_000
    /// Most `/stream/{n}` lines and `/sse/{n}` events.
    static let maxItems = 1_000_000

    private static let readOnly: [(name: String, value: String)] = [("Allow", "GET, HEAD")]

    /// The route for `request`.
    static func route(_ request: DemoOriginRequest) -> DemoOriginRoute {
        var path = request.path[...]
        if path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let first = segments.first else { return notFound(request) }
        let argument = segments.count == 2 ? segments.last : nil
        switch (first, segments.count) {
        case ("echo", 1):
            return request.flag("raw") ? .echoRaw : .echo
        case ("ws", 1):
            return request.method == "GET"
                ? DemoOriginRouter.webSocket(request)
                : .error(405, "method not allowed", extra: [("Allow", "GET")])
        case ("token", 1):
            return request.method == "POST" ? .token : .error(405, "method not allowed", extra: [("Allow", "POST")])
        default:
            break
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return isKnown(first, count: segments.count) ? .error(405, "method not allowed", extra: readOnly) : notFound(request)
        }
        switch (first, segments.count) {
        case ("", 1): return .fixed(status: 200, reason: "", contentType: "application/json", body: DemoOriginDocuments.index, extra: [])
        case ("json", 1): return .tagged(DemoOriginDocuments.slideshow, tag: DemoOriginDocuments.slideshowTag, for: request)
        case ("64", 1): return .sixtyFour
        case ("users", 1): return users(request)
        case ("users", 2): return user(argument, request)
        case ("status", 2): return status(argument)
        case ("delay", 2): return delay(argument)
        case ("bytes", 2): return bytes(argument, request)
        case ("stream", 2): return stream(argument)
        case ("sse", 2): return events(argument, request)
        case ("headers", 1): return .json("{\"headers\": \(request.headersJSON)}")
        case ("ip", 1): return ip(request)
        default: return notFound(request)
        }
    }

    private static func isKnown(_ first: Substring, count: Int) -> Bool {
        switch (first, count) {
        case ("", 1), ("json", 1), ("64", 1), ("users", 1), ("users", 2), ("status", 2), ("delay", 2),
             ("bytes", 2), ("stream", 2), ("sse", 2), ("headers", 1), ("ip", 1):
            true
        default:
            false
        }
    }

    private static func notFound(_ request: DemoOriginRequest) -> DemoOriginRoute {
        .error(404, "no such endpoint", fields: [("path", request.path)])
    }

    private static func users(_ request: DemoOriginRequest) -> DemoOriginRoute {
        let query = request.parameter("q") ?? ""
        let results = DemoOriginUsers.search(query).map(\.json).joined(separator: ", ")
        return .json("{\"query\": \(DemoOriginJSON.quoted(query)), \"results\": [\(results)]}")
    }

    private static func user(_ argument: Substring?, _ request: DemoOriginRequest) -> DemoOriginRoute {
        guard let id = argument.flatMap({ Int($0) }), let user = DemoOriginUsers.user(id: id) else {
            return .error(404, "no such user", fields: [("id", String(argument ?? ""))])
        }
        return .tagged(DemoOriginJSON.body(user.json), tag: user.tag, for: request)
    }

    private static func status(_ argument: Substring?) -> DemoOriginRoute {
        guard let code = argument.flatMap({ Int($0) }), (200...599).contains(code) else {
            return .error(400, "status must be a number in 200...599", fields: [("status", String(argument ?? ""))])
        }
        let body = code == 204 || code == 304 ? [] : DemoOriginJSON.body("{\"status\": \(code)}")
        return .fixed(status: code, reason: "", contentType: body.isEmpty ? nil : "application/json", body: body, extra: [])
    }

    private static func delay(_ argument: Substring?) -> DemoOriginRoute {
        guard let milliseconds = argument.flatMap({ Int($0) }), (0...maxDelayMilliseconds).contains(milliseconds) else {
            return .error(400, "delay must be a number of milliseconds in 0...\(maxDelayMilliseconds)")
        }
        return .delay(milliseconds: milliseconds)
    }

    private static func bytes(_ argument: Substring?, _ request: DemoOriginRequest) -> DemoOriginRoute {
        guard let count = argument.flatMap({ UInt64($0) }), count <= maxBytes else {
            return .error(400, "byte count must be a number in 0...\(maxBytes)")
        }
        if request.flag("close") { return .bytes(count: count, framing: .untilClose) }
        // HTTP/1.0 has no chunked coding: its clients get the close-delimited form.
        if request.flag("chunked") { return .bytes(count: count, framing: request.isHTTP10 ? .untilClose : .chunked) }
        return .bytes(count: count, framing: .length(count))
    }

    private static func stream(_ argument: Substring?) -> DemoOriginRoute {
        guard let count = argument.flatMap({ Int($0) }), (0...maxItems).contains(count) else {
            return .error(400, "line count must be a number in 0...\(maxItems)")
        }
        return .stream(count: count)
    }

    private static func events(_ argument: Substring?, _ request: DemoOriginRequest) -> DemoOriginRoute {
        guard let count = argument.flatMap({ Int($0) }), (0...maxItems).contains(count) else {
            return .error(400, "event count must be a number in 0...\(maxItems)")
        }
        let interval = request.parameter("interval_ms").map { Int($0) } ?? 100
        guard let interval, (0...maxDelayMilliseconds).contains(interval) else {
            return .error(400, "interval_ms must be a number in 0...\(maxDelayMilliseconds)")
        }
        return .events(count: count, first: resumePoint(request, count: count), intervalMilliseconds: interval)
    }

    /// The first event to send: after the one `Last-Event-ID` names. A value that is not an
    /// event id of this stream is ignored (the stream starts over), as a fresh client would expect.
    private static func resumePoint(_ request: DemoOriginRequest, count: Int) -> Int {
        guard let value = request.head.headers.first("last-event-id"),
              let last = Int(value), (0..<count).contains(last) else { return 0 }
        return last + 1
    }

    private static func ip(_ request: DemoOriginRequest) -> DemoOriginRoute {
        let origin = request.peer.map { DemoOriginJSON.quoted($0.ip) } ?? "null"
        let port = request.peer.map { String($0.port) } ?? "null"
        return .json("{\"origin\": \(origin), \"port\": \(port)}")
    }
}
