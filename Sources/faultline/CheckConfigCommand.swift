import FaultlineProxy
import FaultlineConfig

/// `faultline check-config FILE`: validates a config and compiles it as `run` would.
enum CheckConfigCommand {
    static let usage = """
    Usage: faultline check-config FILE

    Validates FILE (JSON; schema in config/faultline.schema.json), resolves every upstream host,
    loads every certificate and key, reads every app pin file (pins.app), and prints every
    problem with its field path, then the warnings (e.g. a pin set with no backup). Exit 0
    if valid (warnings allowed), 3 if not, 2 on usage errors.
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

extension ConfigErrors {
    /// The same errors, attributed to `file` when they came without one.
    func withFile(_ file: String) -> ConfigErrors {
        self.file == nil ? ConfigErrors(errors: errors, file: file) : self
    }
}
