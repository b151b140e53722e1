import FaultlineProxy

/// Dispatches `faultline <command>`.
enum CommandLineInterface {
    static let version = FaultlineVersion.current

    static let usage = """
    faultline \(version) — an HTTP reverse proxy that reproduces outages, verifies certificate
    pins and logs traffic with secrets redacted.

    Usage:
      faultline run [--config FILE] [--listen ADDR] [--upstream URL] [--workers N]
      faultline check-config FILE
      faultline demo-origin [--listen ADDR] [--workers N]
      faultline certs init [--dir certs] [--names localhost,127.0.0.1,...] [--drills] [--force]
      faultline pins compute <file | host:port> [--format text|json] [--ca FILE]
      faultline pins check <host:port> --pins PIN,... [--candidate PIN,...] [--ca FILE] [--require-candidate]
      faultline pins app --app LABEL=FILE ... --chain LABEL=SOURCE ... [--host NAME] [--at DATE] [--format text|json]
      faultline rules list|add|rm|enable|disable|reset|stats [--admin URL] [--token T] [--format text|json]
      faultline har export|clear [--admin URL] [--token T] [--output FILE]
      faultline scenario start FILE|status|stop NAME [--session ID] [--admin URL] [--token T]
      faultline scenario from-har FILE.har [--only-failures] [--compress F | --max-gap-ms N] [--host P ...] [-o OUT]
      faultline setup ios-simulator|android-emulator|device [--config FILE] [--proxy ADDR] [--admin ADDR] [--certs DIR] [--lan IP]
      faultline --version
      faultline <command> --help

    Exit codes: 0 success, 1 runtime failure, 2 usage error, 3 invalid configuration.
    """

    static func run(_ arguments: [String]) -> ExitStatus {
        guard let command = arguments.first else {
            Console.err(usage)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--version", "version":
            Console.out("faultline \(version)")
            return .ok
        case "--help", "-h", "help":
            Console.out(usage)
            return .ok
        case "run":
            return RunCommand.main(rest)
        case "check-config":
            return CheckConfigCommand.main(rest)
        case "demo-origin":
            return DemoOriginCommand.main(rest)
        case "certs":
            return CertsCommand.main(rest)
        case "pins":
            return PinsCommand.main(rest)
        case "rules":
            return RulesCommand.main(rest)
        case "har":
            return HARCommand.main(rest)
        case "scenario", "scenarios":
            return ScenarioCommand.main(rest)
        case "setup":
            return SetupCommand.main(rest)
        default:
            Console.err("faultline: unknown command \"\(command)\"\n\n\(usage)")
            return .usage
        }
    }
}
