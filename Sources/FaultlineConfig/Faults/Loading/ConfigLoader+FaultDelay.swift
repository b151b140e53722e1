extension ConfigLoader {
    /// A delay object: exactly one of ms, uniform, lognormal, plus phase.
    static func readDelay(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> DelayFault? {
        let phase = object.choice("phase", default: DelayFault.Phase.request, &diagnostics)
        let kinds = ["ms", "uniform", "lognormal"]
        let present = kinds.filter { object[$0] != nil }
        guard present.count == 1, let key = present.first else {
            let got = present.isEmpty ? "none" : present.joined(separator: ", ")
            diagnostics.add(object.path, "expected exactly one of \(kinds.joined(separator: ", ")), got \(got)")
            return nil
        }
        let distribution: DelayFault.Distribution?
        switch key {
        case "ms":
            distribution = optionalInt(object, "ms", in: faultMsRange, &diagnostics).map { .fixed(ms: $0) }
        case "uniform":
            distribution = object.object("uniform", known: FaultConfigKeys.uniform, &diagnostics)
                .flatMap { readUniform($0, &diagnostics) }
        default:
            distribution = object.object("lognormal", known: FaultConfigKeys.lognormal, &diagnostics)
                .flatMap { readLognormal($0, &diagnostics) }
        }
        return distribution.map { DelayFault($0, phase: phase) }
    }

    private static func requiredMs(_ object: FieldReader, _ key: String, in range: ClosedRange<Int>, _ diagnostics: inout Diagnostics) -> Int? {
        guard object[key] != nil else {
            diagnostics.add(object.path(key), "expected an integer \(range.lowerBound)...\(range.upperBound), got nothing")
            return nil
        }
        return optionalInt(object, key, in: range, &diagnostics)
    }

    private static func readUniform(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> DelayFault.Distribution? {
        let low = requiredMs(object, "min_ms", in: faultMsRange, &diagnostics)
        let high = requiredMs(object, "max_ms", in: faultMsRange, &diagnostics)
        guard let low, let high else { return nil }
        guard low <= high else {
            diagnostics.add(object.path, "expected min_ms <= max_ms, got \(low) > \(high)")
            return nil
        }
        return .uniform(minMs: low, maxMs: high)
    }

    private static func readLognormal(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> DelayFault.Distribution? {
        let median = requiredMs(object, "median_ms", in: 1...faultMsRange.upperBound, &diagnostics)
        var sigma: Double?
        if object["sigma"] == nil {
            diagnostics.add(object.path("sigma"), "expected a number 0...10, got nothing")
        } else {
            sigma = number(object, "sigma", in: 0...10, &diagnostics)
        }
        let maxMs = optionalInt(object, "max_ms", in: faultMsRange, &diagnostics)
        guard let median, let sigma, object["max_ms"] == nil || maxMs != nil else { return nil }
        let cap = maxMs ?? min(median * 10, faultMsRange.upperBound)
        guard median <= cap else {
            diagnostics.add(object.path, "expected median_ms <= max_ms, got \(median) > \(cap)")
            return nil
        }
        return .lognormal(medianMs: median, sigma: sigma, maxMs: cap)
    }
}
