import Foundation

/// The dashboard's endpoints: its files under `/ui/`, the recent exchanges and one
/// exchange's detail from the live feed, and the traffic overview. The live stream itself
/// (`GET /exchanges/stream`) is answered on the loop by `AdminLiveStream`.
extension AdminRouter {
    /// Most exchanges `GET /exchanges` returns.
    static let recentLimit = 500
    /// Seconds of traffic `GET /overview` returns.
    static let overviewSeconds = 120

    /// `/`, `/ui`, `/ui/…`: the page and its files, or a redirect to it.
    func dashboard(_ method: String, _ rest: [String], _ request: AdminRequest) -> AdminResponse {
        guard method == "GET" else { return notAllowed(request, "GET") }
        guard let name = rest.isEmpty ? "index.html" : (rest.count == 1 ? rest[0] : nil),
              let file = DashboardAssets.file(name) else {
            return notFound(request)
        }
        return AdminResponse(status: 200, body: Array(file.text.utf8), contentType: file.contentType,
                             headers: [("Content-Security-Policy", AdminSecurityHeaders.pagePolicy)])
    }

    /// `GET /`: to the page.
    func rootRedirect(_ request: AdminRequest) -> AdminResponse {
        guard request.method == "GET" else { return notFound(request) }
        var response = AdminResponse.json(302, AdminBody.Moved(location: "/ui/"))
        response.headers.append(("Location", "/ui/"))
        return response
    }

    /// `GET /exchanges[?limit=N]`, `GET /exchanges/{seq}`.
    func exchanges(_ method: String, _ rest: [String], _ request: AdminRequest) -> AdminResponse {
        guard method == "GET" else { return notAllowed(request, "GET") }
        switch rest.count {
        case 0:
            var limit = Self.recentLimit
            for pair in request.query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0] == "limit" else {
                    return AdminRefusal(400, "\(pair): unknown parameter (known: limit)", field: String(parts.first ?? "")).response
                }
                guard parts[1].count <= 6, let value = Int(parts[1]), (1...LiveFeed.capacity).contains(value) else {
                    return AdminRefusal(400, "limit: expected an integer 1...\(LiveFeed.capacity)", field: "limit").response
                }
                limit = value
            }
            let records = server.live.recent(limit: limit)
            return .json(200, AdminBody.Exchanges(exchanges: records.map { LiveExchange($0, detail: false) },
                                                  newest: server.live.published))
        case 1:
            guard rest[0].count <= 18, let seq = Int(rest[0]) else { return notFound(request) }
            guard let record = server.live.record(seq) else {
                return .error(404, "exchange \(seq) is no longer kept (the dashboard keeps the last \(LiveFeed.capacity))")
            }
            return .json(200, LiveExchange(record, detail: true))
        default:
            return notFound(request)
        }
    }

    /// `GET /overview`: traffic per second, the last minute's figures, connections, generation.
    func overview(_ request: AdminRequest) -> AdminResponse {
        guard request.method == "GET" else { return notAllowed(request, "GET") }
        let now = MonotonicClock.nanoseconds()
        let series = server.live.traffic(seconds: Self.overviewSeconds, now: now)
        // The last 60 seconds, the current (partial) one included, as the histogram is.
        let minute = series.suffix(60)
        let requests = minute.reduce(0) { $0 + $1.requests }
        let errors = minute.reduce(0) { $0 + $1.errors }
        let histogram = server.live.histogram(seconds: 60, now: now)
        return .json(200, AdminBody.Overview(
            configGeneration: server.snapshot.generation, connections: server.connectionCount, exchanges: server.live.published,
            lastMinute: AdminBody.Overview.Minute(requestsPerSecond: Double(requests) / 60, errorRate: requests > 0 ? Double(errors) / Double(requests) : 0,
                                                  requests: requests, errors: errors,
                                                  p50Ms: LiveTraffic.percentile(0.5, histogram), p99Ms: LiveTraffic.percentile(0.99, histogram)),
            seconds: series))
    }
}

extension AdminBody {
    /// `GET /exchanges`.
    struct Exchanges: Encodable {
        let exchanges: [LiveExchange]
        /// The newest number handed out: the live stream's `after`.
        let newest: Int
    }

    /// A redirect's body.
    struct Moved: Encodable {
        let location: String
    }

    /// `GET /overview`.
    struct Overview: Encodable {
        let configGeneration: Int
        let connections: Int
        /// Exchanges recorded since the admin API started.
        let exchanges: Int
        let lastMinute: Minute
        /// Oldest first, the last being the current (partial) second.
        let seconds: [LiveTraffic.Second]

        /// The last 60 seconds, the current one included.
        struct Minute: Encodable {
            let requestsPerSecond: Double
            let errorRate: Double
            let requests: Int
            let errors: Int
            let p50Ms: Double?
            let p99Ms: Double?

            enum CodingKeys: String, CodingKey {
                case requests, errors
                case requestsPerSecond = "requests_per_second", errorRate = "error_rate", p50Ms = "p50_ms", p99Ms = "p99_ms"
            }
        }

        enum CodingKeys: String, CodingKey {
            case connections, exchanges, seconds
            case configGeneration = "config_generation", lastMinute = "last_minute"
        }
    }
}
