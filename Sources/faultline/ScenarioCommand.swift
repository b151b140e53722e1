/// `faultline scenario <subcommand>`: only the dispatch, so each subcommand lives in its own file.
enum ScenarioCommand {
    static let usage = """
    Usage:
      faultline scenario start FILE [--session ID] [options]
      faultline scenario status [NAME] [--session ID] [options]
      faultline scenario stop NAME [--session ID] [options]
      faultline scenario from-har FILE.har [--only-failures] [--compress F | --max-gap-ms N] [--host P ...] [-o OUT]

    Options:
      --admin URL       the admin API (default $FAULTLINE_ADMIN, else http://127.0.0.1:9901)
      --token TOKEN     bearer token (default $FAULTLINE_ADMIN_TOKEN)
      --session ID      the scenarios of that session (POST /sessions) instead of the global ones
      --format text|json
      --timeout-ms N    (default 10000)

    A scenario file is {"name": …, "loop": false, "phases": [{"for_ms": N | "requests": N,
    "rules": [rules as in faultline rules add]}, …]} (docs/scenarios.md). start defines it
    (replacing a stopped one of the same name) and starts it at its first phase; status shows
    each scenario's phase and the time or requests left; stop takes its rules out of effect.
    from-har writes a scenario reproducing a HAR's failures (faultline scenario from-har --help).

    Exit codes: 0 done; 1 the admin API refused (its error is printed) or could not be
    reached; 2 usage error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline scenario: expected a subcommand\n\n\(usage)")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "--help", "-h", "help":
            Console.out(usage)
            return .ok
        case "start", "status", "stop":
            return ScenarioControlCommand.main(subcommand, rest)
        case "from-har":
            return ScenarioFromHARCommand.main(rest)
        default:
            Console.err("faultline scenario: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
    }
}
