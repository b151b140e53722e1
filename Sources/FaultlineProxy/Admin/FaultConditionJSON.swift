import FaultlineConfig

/// A fault's `when` object, in the config file's keys.
struct FaultConditionJSON: Encodable {
    let probability: Double?
    let firstN: Int?
    let afterN: Int?
    let everyNth: Int?
    let activeForMs: Int?
    let maxActive: Int?
    let sequence: [Step]?

    enum CodingKeys: String, CodingKey {
        case probability
        case firstN = "first_n"
        case afterN = "after_n"
        case everyNth = "every_nth"
        case activeForMs = "active_for_ms"
        case maxActive = "max_active"
        case sequence
    }

    /// One `sequence` step as the config spells it: `true`, `"pass"` or a status code.
    enum Step: Encodable {
        case fire
        case pass
        case status(Int)

        init(_ step: FaultSequenceStep) {
            switch step {
            case .fire: self = .fire
            case .pass: self = .pass
            case .status(let code): self = .status(code)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .fire: try container.encode(true)
            case .pass: try container.encode("pass")
            case .status(let code): try container.encode(code)
            }
        }
    }

    /// The condition, or nil when the fault fires on every matched request (no `when`).
    init?(_ when: FaultCondition) {
        probability = when.probability
        firstN = when.firstN
        afterN = when.afterN
        everyNth = when.everyNth
        activeForMs = when.activeForMs
        maxActive = when.maxActive
        sequence = when.sequence?.map(Step.init)
        let counts = [firstN, afterN, everyNth, activeForMs, maxActive]
        if probability == nil, sequence == nil, counts.allSatisfy({ $0 == nil }) { return nil }
    }
}
