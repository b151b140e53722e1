/// `faultline pins …` (being built: compute and check SPKI pins).
enum PinsCommand {
    static func main(_ arguments: [String]) -> ExitStatus {
        Console.err("faultline pins: not available in this build")
        return .usage
    }
}
