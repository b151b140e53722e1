extension ConfigLoader {
    /// The keys of a scenario object; `start` only in the config file.
    static let scenarioKeys = ["name", "loop", "phases", "start"]
    /// The keys of a phase.
    static let scenarioPhaseKeys = ["name", "for_ms", "requests", "rules"]
    /// The most scenarios a config file defines.
    public static let maxScenarios = 100

    /// The config file's `scenarios`: names unique, `start` allowed.
    static func readScenarios(
        _ top: FieldReader, upstreamNames: [String]?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> [ScenarioConfig] {
        guard let value = top["scenarios"] else { return [] }
        let path = top.path("scenarios")
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of scenarios, got \(value.rendered)")
            return []
        }
        guard items.count <= maxScenarios else {
            diagnostics.add(path, "expected at most \(maxScenarios) scenarios, got \(items.count)")
            return []
        }
        let scenarioContext = LoadContext(baseDirectory: context.baseDirectory, checkFiles: context.checkFiles, now: context.now,
                                          confinement: .scenarioRule)
        var scenarios: [ScenarioConfig] = []
        var seen: [String: String] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = Diagnostics.join(path, index)
            guard let scenario = readScenario(item, path: itemPath, upstreamNames: upstreamNames, allowStart: true,
                                              scenarioContext, &diagnostics) else { continue }
            if let earlier = seen[scenario.name] {
                diagnostics.add(Diagnostics.join(itemPath, "name"),
                                "duplicate scenario name \(JSONValue.quoted(scenario.name)) (already used by \(earlier))")
            } else {
                seen[scenario.name] = itemPath
            }
            scenarios.append(scenario)
        }
        return scenarios
    }

    /// One scenario object at `path`; nil after reporting when it is unusable.
    static func readScenario(
        _ value: JSONValue, path: String, upstreamNames: [String]?, allowStart: Bool, _ context: LoadContext,
        _ diagnostics: inout Diagnostics
    ) -> ScenarioConfig? {
        let known = allowStart ? scenarioKeys : scenarioKeys.filter { $0 != "start" }
        guard let object = FieldReader(value, path: path, known: known, diagnostics: &diagnostics) else { return nil }
        let expectedName = "a name of 1...\(ScenarioConfig.maxNameBytes) letters, digits, '.', '_' or '-'"
        let name = object.requiredString("name", expected: expectedName, &diagnostics)
        if let name, !ScenarioConfig.isValidName(name) {
            diagnostics.add(object.path("name"), "expected \(expectedName), got \(JSONValue.quoted(name))")
        }
        let loop = object.bool("loop", default: false, &diagnostics)
        let start = allowStart ? object.bool("start", default: false, &diagnostics) : false
        let phases = readPhases(object, upstreamNames: upstreamNames, context, &diagnostics)
        if loop, let last = phases.last, last.end == .never {
            diagnostics.add(object.path("loop"), "a looping scenario needs its last phase to end (for_ms or requests); phases[\(phases.count - 1)] has neither")
        }
        guard let name, ScenarioConfig.isValidName(name), !phases.isEmpty else { return nil }
        return ScenarioConfig(name: name, loop: loop, start: start, phases: phases)
    }

    private static func readPhases(
        _ object: FieldReader, upstreamNames: [String]?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> [ScenarioPhase] {
        let path = object.path("phases")
        let expected = "a non-empty array of at most \(ScenarioConfig.maxPhases) phases"
        guard let value = object["phases"] else {
            diagnostics.add(path, "expected \(expected), got nothing")
            return []
        }
        guard case .array(let items) = value, !items.isEmpty, items.count <= ScenarioConfig.maxPhases else {
            let got = if case .array(let items) = value { "\(items.count) phases" } else { value.rendered }
            diagnostics.add(path, "expected \(expected), got \(got)")
            return []
        }
        var phases: [ScenarioPhase] = []
        for (index, item) in items.enumerated() {
            let phasePath = Diagnostics.join(path, index)
            guard let phase = readPhase(item, path: phasePath, upstreamNames: upstreamNames, context, &diagnostics) else { continue }
            if phase.end == .never && index < items.count - 1 {
                diagnostics.add(phasePath, "only the last phase may have neither for_ms nor requests (the phases after it could never start)")
            }
            phases.append(phase)
        }
        return phases
    }

    private static func readPhase(
        _ value: JSONValue, path: String, upstreamNames: [String]?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> ScenarioPhase? {
        guard let object = FieldReader(value, path: path, known: scenarioPhaseKeys, diagnostics: &diagnostics) else { return nil }
        let name = object.string("name", expected: "a string of at most \(ScenarioConfig.maxPhaseNameBytes) bytes", &diagnostics)
        if let name, name.utf8.count > ScenarioConfig.maxPhaseNameBytes {
            diagnostics.add(object.path("name"), "expected at most \(ScenarioConfig.maxPhaseNameBytes) bytes, got \(name.utf8.count)")
        }
        var end = ScenarioPhase.End.never
        switch (object["for_ms"], object["requests"]) {
        case (let duration?, nil):
            if let ms = FieldReader.int(duration, in: ScenarioConfig.durationRange, path: object.path("for_ms"), &diagnostics) {
                end = .elapsed(milliseconds: ms)
            }
        case (nil, let count?):
            if let count = FieldReader.int(count, in: ScenarioConfig.requestsRange, path: object.path("requests"), &diagnostics) {
                end = .requests(count)
            }
        case (.some, .some):
            diagnostics.add(path, "expected at most one of for_ms and requests, got both")
        case (nil, nil):
            break
        }
        let rules = readPhaseRules(object, upstreamNames: upstreamNames, context, &diagnostics)
        let noRules: Bool = switch object["rules"] {
        case nil: true
        case .array(let items)?: items.isEmpty
        default: false
        }
        if case .requests = end, noRules {
            diagnostics.add(object.path("requests"), "a phase that ends after a number of requests counts the requests its rules match: give it at least one rule, or use for_ms")
        }
        return ScenarioPhase(name: name, end: end, rules: rules)
    }

    private static func readPhaseRules(
        _ object: FieldReader, upstreamNames: [String]?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> [RouteConfig] {
        guard let value = object["rules"] else { return [] }
        let path = object.path("rules")
        guard case .array(let items) = value, items.count <= ScenarioConfig.maxRulesPerPhase else {
            let got = if case .array(let items) = value { "\(items.count) rules" } else { value.rendered }
            diagnostics.add(path, "expected an array of at most \(ScenarioConfig.maxRulesPerPhase) rules, got \(got)")
            return []
        }
        var rules: [RouteConfig] = []
        var seen: [String: String] = [:]
        for (index, item) in items.enumerated() {
            let rulePath = Diagnostics.join(path, index)
            if case .object(let fields) = item, fields["name"] == nil {
                diagnostics.add(Diagnostics.join(rulePath, "name"), "expected a non-empty string (every scenario rule needs a name), got nothing")
                continue
            }
            guard let rule = readRoute(item, path: rulePath, upstreamNames: upstreamNames, upstreamOptional: true,
                                       context, &diagnostics) else { continue }
            if let earlier = seen[rule.name] {
                diagnostics.add(Diagnostics.join(rulePath, "name"),
                                "duplicate rule name \(JSONValue.quoted(rule.name)) in this phase (already used by \(earlier))")
            } else {
                seen[rule.name] = rulePath
            }
            rules.append(rule)
        }
        return rules
    }
}
