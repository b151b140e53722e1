/// The bodies the admin API answers with, one type per shape. Keys are spelled out where
/// they differ from the property names; optional properties are left out when nil.
enum AdminBody {
    /// `{"error": message}`.
    struct Failure: Encodable {
        let error: String
    }

    /// One problem of a rule that failed validation.
    struct Problem: Encodable {
        let field: String
        let message: String
    }

    /// A refusal: the message, the field to blame and every problem, when known.
    struct Refusal: Encodable {
        let error: String
        let field: String?
        let errors: [Problem]?
    }

    /// A 404 with the endpoints there are.
    struct NotFound: Encodable {
        let error: String
        let endpoints: [String]
    }

    /// `GET /health`.
    struct Health: Encodable {
        let status: String
        let configGeneration: Int
        let connections: Int

        enum CodingKeys: String, CodingKey {
            case status
            case configGeneration = "config_generation"
            case connections
        }
    }

    /// The answer to a change that leaves no rule to show (`DELETE /rules/{name}`).
    struct Generation: Encodable {
        let configGeneration: Int

        enum CodingKeys: String, CodingKey {
            case configGeneration = "config_generation"
        }
    }

    /// A rule that is no longer in effect after a change, by name only.
    struct RuleName: Encodable {
        let name: String
    }

    /// `GET /rules`: every rule in match order, and the runtime changes a reload left stale.
    struct RuleList: Encodable {
        let configGeneration: Int
        let rules: [RuleJSON]
        let stale: [String]

        enum CodingKeys: String, CodingKey {
            case configGeneration = "config_generation"
            case rules
            case stale
        }
    }

    /// `POST /rules/reset`.
    struct Reset: Encodable {
        let reset: Bool
        let configGeneration: Int

        enum CodingKeys: String, CodingKey {
            case reset
            case configGeneration = "config_generation"
        }
    }

    /// `DELETE /har`: how many entries were dropped.
    struct Cleared: Encodable {
        let cleared: Int
    }

    /// `GET /pins`: counters and last chains per upstream.
    struct Pins: Encodable {
        let upstreams: [String: PinStatusBoard.UpstreamReport]
    }
}
