extension ConfigLoader {
    /// The `when` of a fault; sequence steps may be status codes only for a status fault.
    static func readCondition(_ fault: FieldReader, isStatus: Bool, _ diagnostics: inout Diagnostics) -> FaultCondition? {
        guard fault["when"] != nil else { return FaultCondition() }
        guard let object = fault.object("when", known: FaultConfigKeys.when, &diagnostics) else { return nil }
        let errorsBefore = diagnostics.errors.count
        let condition = FaultCondition(
            probability: number(object, "probability", in: 0...1, &diagnostics),
            firstN: optionalInt(object, "first_n", in: 1...Int.max, &diagnostics),
            afterN: optionalInt(object, "after_n", in: 0...Int.max, &diagnostics),
            everyNth: optionalInt(object, "every_nth", in: 1...Int.max, &diagnostics),
            sequence: object["sequence"].flatMap { readSequence($0, path: object.path("sequence"), isStatus: isStatus, &diagnostics) },
            activeForMs: optionalInt(object, "active_for_ms", in: 1...Int.max, &diagnostics),
            maxActive: optionalInt(object, "max_active", in: 1...Int.max, &diagnostics))
        return diagnostics.errors.count == errorsBefore ? condition : nil
    }

    private static func readSequence(
        _ value: JSONValue, path: String, isStatus: Bool, _ diagnostics: inout Diagnostics
    ) -> [FaultSequenceStep]? {
        let what = isStatus ? "a status code 100...599, \"pass\", true or false" : "true, false or \"pass\""
        guard case .array(let items) = value, !items.isEmpty else {
            diagnostics.add(path, "expected a non-empty array of steps (\(what)), got \(value.rendered)")
            return nil
        }
        var steps: [FaultSequenceStep] = []
        for (index, item) in items.enumerated() {
            let itemPath = Diagnostics.join(path, index)
            switch item {
            case .bool(let fire): steps.append(fire ? .fire : .pass)
            case .string("pass"): steps.append(.pass)
            case .number where isStatus:
                if let code = statusCode(item, path: itemPath, &diagnostics) { steps.append(.status(code)) }
            case .number:
                diagnostics.add(itemPath, "expected \(what) (status codes need a status fault), got \(item.rendered)")
            default:
                diagnostics.add(itemPath, "expected \(what), got \(item.rendered)")
            }
        }
        return steps.count == items.count ? steps : nil
    }
}
