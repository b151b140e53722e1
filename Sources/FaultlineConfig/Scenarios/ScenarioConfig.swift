import Foundation

/// A named timeline of phases, each a set of rules (the admin API's rule format) in effect
/// for a time, for a number of matching requests, or until the scenario stops; with `loop`
/// the first phase follows the last. Read from a scenario file, `POST /scenarios`,
/// `POST /sessions/{id}/scenarios` or the config file's `scenarios` (docs/scenarios.md).
public struct ScenarioConfig: Sendable, Equatable {
    /// The most phases one scenario holds.
    public static let maxPhases = 100
    /// The most rules one phase holds (a session holds as many).
    public static let maxRulesPerPhase = 100
    /// `for_ms`: at least 1 ms, at most one day (the config's timeout range).
    public static let durationRange = 1...86_400_000
    /// `requests`: at least one, at most a billion.
    public static let requestsRange = 1...1_000_000_000
    /// The longest name, in bytes.
    public static let maxNameBytes = 100
    /// The longest phase name, in bytes.
    public static let maxPhaseNameBytes = 200

    /// Unique among the scenarios of one place (global, or one session): letters, digits,
    /// `.`, `_`, `-`, so it is a URL segment and a metrics label as written.
    public let name: String
    /// Whether the first phase follows the last.
    public let loop: Bool
    /// Whether the config file asks for it to run as soon as it is loaded (`"start": true`).
    public let start: Bool
    /// The phases, in order; at least one.
    public let phases: [ScenarioPhase]

    /// Creates a scenario (validated by the loader; this initializer checks nothing).
    public init(name: String, loop: Bool = false, start: Bool = false, phases: [ScenarioPhase]) {
        self.name = name
        self.loop = loop
        self.start = start
        self.phases = phases
    }

    /// Parses a scenario document (a scenario file, or the body of `POST /scenarios`); errors
    /// name the key (`scenario.phases[1].for_ms: expected an integer 1...86400000, got 0`).
    ///
    /// `upstreams`: the running configuration's, against which a rule's `upstream` is checked
    /// (a rule may leave it out: its requests go where the global routes send them); nil
    /// checks no names (a file read on its own). `allowStart` accepts the config file's
    /// `start` key. Rules take inline bodies only (`body`, never `body_file`).
    public static func load(json data: Data, upstreams: [UpstreamConfig]?, allowStart: Bool = false) throws(ConfigErrors) -> ScenarioConfig {
        let root: JSONValue
        switch JSONValue.parse(data) {
        case .success(let value): root = value
        case .failure(let error): throw ConfigErrors(errors: [error], file: nil)
        }
        var diagnostics = Diagnostics()
        let context = LoadContext(baseDirectory: nil, checkFiles: true, now: Date(), confinement: .scenarioRule)
        let scenario = ConfigLoader.readScenario(root, path: "scenario", upstreamNames: upstreams.map { $0.map(\.name) },
                                                 allowStart: allowStart, context, &diagnostics)
        guard let scenario, diagnostics.errors.isEmpty else { throw ConfigErrors(errors: diagnostics.errors, file: nil) }
        return scenario
    }

    /// `load(json:upstreams:allowStart:)` for bytes as the admin API holds them.
    public static func load(json bytes: [UInt8], upstreams: [UpstreamConfig]?, allowStart: Bool = false) throws(ConfigErrors) -> ScenarioConfig {
        try load(json: Data(bytes), upstreams: upstreams, allowStart: allowStart)
    }

    /// Reads and parses the scenario file at `path`; errors carry the file.
    public static func load(path: String, upstreams: [UpstreamConfig]?) throws(ConfigErrors) -> ScenarioConfig {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw ConfigErrors(errors: [ConfigError(path: "", message: reason)], file: path)
        }
        do {
            return try load(json: data, upstreams: upstreams)
        } catch {
            throw ConfigErrors(errors: error.errors, file: path)
        }
    }

    /// Whether `text` is a usable scenario name.
    public static func isValidName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxNameBytes && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }
}
