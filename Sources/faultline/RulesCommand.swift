import Foundation

/// `faultline rules list|add|rm|enable|disable|reset|stats`: drives the admin API of a
/// running proxy.
enum RulesCommand {
    static let usage = """
    Usage:
      faultline rules list    [options]
      faultline rules add     <FILE | - | JSON> [--position start|end] [options]
      faultline rules replace <FILE | - | JSON> [options]
      faultline rules rm      NAME [options]
      faultline rules enable  NAME[/FAULT] [options]
      faultline rules disable NAME[/FAULT] [options]
      faultline rules reset   [options]
      faultline rules stats   [options]

    Options:
      --admin URL       the admin API (default $FAULTLINE_ADMIN, else http://127.0.0.1:9901)
      --token TOKEN     bearer token (default $FAULTLINE_ADMIN_TOKEN)
      --format text|json
      --timeout-ms N    (default 10000)

    The proxy must have an admin API: config/default.json has one on 127.0.0.1:9901; the
    one-line mode (run --upstream URL) only with --admin ADDR.

    A rule is a route in the config file's format, e.g.
      {"name": "search-down", "match": {"path_prefix": "/users"},
       "faults": [{"status": {"code": 503, "headers": {"Retry-After": "5"}},
                   "when": {"sequence": [503, 503, "pass"]}}]}
    "upstream" names an upstream of the running config ("demo" in config/default.json,
    "default" in the one-line mode and in FaultlineTesting's launch()); with only one
    upstream it may be left out, as here. add takes the rule from a file, from standard
    input (-) or inline; a rule of that name must not exist. replace puts it in place of the
    rule of the same name, runtime or from the file (or adds it). Runtime rules go before the
    file's routes unless --position end; they survive SIGHUP reloads. rm removes the rule
    (file routes too, until restart).

    disable switches a rule's faults off, the route still proxying; enable switches them on.
    A fault has its own switch too (NAME/FAULT), under the rule's: it fires only when both are
    on. Switching keeps the counters, the sequence position and the outage window (like
    Toxiproxy and Envoy): a rule enabled again goes on where it stopped. reset starts every
    fault afresh.

    Exit codes: 0 done; 1 the admin API refused (its error is printed) or could not be
    reached; 2 usage error.
    """

    static let defaultAdmin = "http://127.0.0.1:9901"

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline rules: expected a subcommand\n\n\(usage)")
            return .usage
        }
        if ["--help", "-h", "help"].contains(subcommand) {
            Console.out(usage)
            return .ok
        }
        let parsed: Arguments
        let session: RulesCommandSession
        do {
            parsed = try Arguments(Array(arguments.dropFirst()), valued: ["admin", "token", "format", "timeout-ms", "position"],
                                   flags: ["help"])
            if parsed.flags.contains("help") {
                Console.out(usage)
                return .ok
            }
            session = try RulesCommandSession(parsed)
        } catch {
            Console.err("faultline rules \(subcommand): \(error)\n\n\(usage)")
            return .usage
        }
        let operands = parsed.positionals
        if parsed["position"] != nil && subcommand != "add" {
            Console.err("faultline rules \(subcommand): --position applies to add only\n\n\(usage)")
            return .usage
        }
        let outcome: Result<ExitStatus, UsageError>
        switch subcommand {
        case "list", "ls": outcome = expect(operands, 0).map { session.list() }
        case "stats": outcome = expect(operands, 0).map { session.stats() }
        case "reset": outcome = expect(operands, 0).map { session.reset() }
        case "add": outcome = expect(operands, 1).flatMap { session.add(operands[0], position: parsed["position"]) }
        case "replace": outcome = expect(operands, 1).flatMap { session.replace(operands[0]) }
        case "rm", "remove": outcome = expect(operands, 1).map { session.remove(operands[0]) }
        case "enable", "disable": outcome = expect(operands, 1).map { session.setEnabled(subcommand == "enable", operands[0]) }
        default:
            Console.err("faultline rules: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
        switch outcome {
        case .success(let status):
            return status
        case .failure(let error):
            Console.err("faultline rules \(subcommand): \(error)\n\n\(usage)")
            return .usage
        }
    }

    private static func expect(_ operands: [String], _ count: Int) -> Result<Void, UsageError> {
        guard operands.count == count else {
            let what = count == 0 ? "no operands" : "exactly \(count) operand"
            return .failure(UsageError("expected \(what), got \(operands.isEmpty ? "none" : operands.joined(separator: " "))"))
        }
        return .success(())
    }
}
