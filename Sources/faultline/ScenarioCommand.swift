/// `faultline scenario <subcommand>`. Only `from-har` lives here so far; start, status and
/// stop join it with the scenario engine's CLI.
enum ScenarioCommand {
    static let usage = """
    Usage:
      faultline scenario from-har FILE.har [options]   (faultline scenario from-har --help)
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline scenario: expected a subcommand\n\n\(usage)")
            return .usage
        }
        switch subcommand {
        case "--help", "-h", "help":
            Console.out(usage)
            return .ok
        case "from-har":
            return ScenarioFromHARCommand.main(Array(arguments.dropFirst()))
        default:
            Console.err("faultline scenario: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
    }
}
