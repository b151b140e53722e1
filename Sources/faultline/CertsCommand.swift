/// `faultline certs …` (being built: development CA and listener certificates).
enum CertsCommand {
    static func main(_ arguments: [String]) -> ExitStatus {
        Console.err("faultline certs: not available in this build")
        return .usage
    }
}
