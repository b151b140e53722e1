/// Documented exit codes of every command.
enum ExitStatus: Int32 {
    /// Success (or a clean drain after SIGTERM).
    case ok = 0
    /// The program could not do its job (a listener could not bind, a runtime failure).
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// The configuration is invalid.
    case invalidConfig = 3
}
