import Foundation

/// What the CLI reads of an admin API answer about rules (`/rules`, `/stats`, a rule
/// change, or an error): every member optional, because each endpoint carries only some,
/// and a missing one prints as a placeholder rather than failing the command.
struct AdminAnswer: Decodable {
    /// A rule as `/rules` and `/stats` list it.
    struct Rule: Decodable {
        let name: String?
        let source: String?
        let enabled: Bool?
        let match: Match?
        let upstream: String?
        let faults: [Fault]?
    }

    /// A fault of a rule: `/rules` nests its counters in `stats`, `/stats` puts them flat.
    struct Fault: Decodable {
        let name: String?
        let kind: String?
        let enabled: Bool?
        let stats: Counters?
        let matched: Int?
        let fired: Int?
        let active: Int?
    }

    /// A fault's counters.
    struct Counters: Decodable {
        let matched: Int?
        let fired: Int?
    }

    /// A rule's match.
    struct Match: Decodable {
        let host: String?
        let methods: [String]?
        let path: String?
        let pathPrefix: String?
        let pathGlob: String?
        let headers: Present?
        let query: Present?
        let cookies: Present?
        let client: Present?
        let json: Present?
        let not: Present?

        private enum CodingKeys: String, CodingKey {
            case host, methods, path
            case pathPrefix = "path_prefix"
            case pathGlob = "path_glob"
            case headers, query, cookies, client, json, not
        }

        /// The names of the request conditions beyond host, methods and path that are set.
        var conditions: [String] {
            [("headers", headers), ("query", query), ("cookies", cookies), ("client", client), ("json", json), ("not", not)]
                .compactMap { $0.1 == nil ? nil : $0.0 }
        }
    }

    /// A member whose presence is all the table shows (its value is any JSON).
    struct Present: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// `/stats`' HTTP/2 traffic counters.
    struct HTTP2Counters: Decodable {
        let connectionsAccepted: Int?
        let streamsOpened: Int?
        let streamsResetByFaultline: Int?
        let streamsResetByClient: Int?
        let goawaysSent: Int?

        private enum CodingKeys: String, CodingKey {
            case connectionsAccepted = "connections_accepted"
            case streamsOpened = "streams_opened"
            case streamsResetByFaultline = "streams_reset_by_faultline"
            case streamsResetByClient = "streams_reset_by_client"
            case goawaysSent = "goaways_sent"
        }
    }

    /// One error of a refused change, with its field path.
    struct FieldError: Decodable {
        let field: String?
        let message: String?
    }

    /// The rule a change answered with: its name and switch.
    var name: String?
    var enabled: Bool?
    var rules: [Rule]?
    var stale: [String]?
    var seed: String?
    var http2: HTTP2Counters?
    var error: String?
    var errors: [FieldError]?

    /// An empty answer, for a body that is not the JSON expected.
    init() {}

    /// The answer in `body`, or an empty one when it does not decode.
    init(decoding body: Data) {
        self = (try? JSONDecoder().decode(AdminAnswer.self, from: body)) ?? AdminAnswer()
    }
}
