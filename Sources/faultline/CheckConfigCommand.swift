import FaultlineProxy
import FaultlineConfig
import Foundation

/// `faultline check-config FILE`: validates a config and compiles it as `run` would.
enum CheckConfigCommand {
    static let usage = """
    Usage: faultline check-config FILE

    Validates FILE (JSON; schema in config/faultline.schema.json), resolves every upstream host,
    loads every certificate and key, reads every app pin file (pins.app), and prints every
    problem with its field path, then the warnings (e.g. a pin set with no backup). A
    scenario file (a top-level "phases", no "listeners" or "upstreams"; docs/scenarios.md)
    is checked as a scenario, its rules' upstreams left unchecked. Exit 0 if valid (warnings
    allowed), 3 if not, 2 on usage errors.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        switch Arguments.forCommand("faultline check-config", arguments, valued: [], usage: usage) {
        case .proceed(let arguments): parsed = arguments
        case .stop(let status): return status
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            Console.err("faultline check-config: expected exactly one FILE\n\n\(usage)")
            return .usage
        }
        if isScenarioFile(path) { return checkScenario(path) }
        do {
            let (config, loadWarnings) = try ConfigLoader.loadWithWarnings(path: path)
            let snapshot = try ConfigSnapshot(config: config, generation: 0)
            let warnings = loadWarnings + snapshot.appPinWarnings.map(\.warning)
            for warning in warnings { Console.err("\(path): warning: \(warning)") }
            Console.out("\(path): OK (\(config.listeners.count) listener(s), \(config.upstreams.count) upstream(s), \(config.routes.count) route(s)\(warnings.isEmpty ? "" : ", \(warnings.count) warning(s)"))")
            return .ok
        } catch {
            Console.err(error.withFile(path).description)
            return .invalidConfig
        }
    }
}

extension CheckConfigCommand {
    /// Whether `path` holds a scenario rather than a config: a JSON object with `phases` and
    /// neither `listeners` nor `upstreams`. Anything unreadable is left to the config loader,
    /// whose errors say what is wrong.
    static func isScenarioFile(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              ((attributes[.size] as? NSNumber)?.intValue ?? Int.max) <= 64 * 1024 * 1024,
              let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["phases"] != nil && object["listeners"] == nil && object["upstreams"] == nil
    }

    private static func checkScenario(_ path: String) -> ExitStatus {
        do {
            let scenario = try ScenarioConfig.load(path: path, upstreams: nil)
            let rules = scenario.phases.reduce(0) { $0 + $1.rules.count }
            Console.out("\(path): OK (scenario \(scenario.name): \(scenario.phases.count) phase(s), \(rules) rule(s))")
            return .ok
        } catch {
            Console.err(error.withFile(path).description)
            return .invalidConfig
        }
    }
}

extension ConfigErrors {
    /// The same errors, attributed to `file` when they came without one.
    func withFile(_ file: String) -> ConfigErrors {
        self.file == nil ? ConfigErrors(errors: errors, file: file) : self
    }
}
