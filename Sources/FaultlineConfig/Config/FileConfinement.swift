/// Which files a rule may name. The config file is the operator's: its paths are trusted.
/// A rule sent to the admin API is not: it may only name files inside the config file's
/// directory, or none at all when the config did not come from a file. A session's rule
/// names no file whatever the config's origin.
enum FileConfinement: Equatable {
    /// Any path (the config file itself).
    case unconfined
    /// Only files whose real path (symbolic links and `..` resolved) is inside this directory.
    case within(String)
    /// No files, because the configuration came from no file: inline bodies only.
    case inlineOnly
    /// No files, because the rule is a session's: inline bodies only.
    case sessionRule
    /// No files, because the rule is a scenario phase's: inline bodies only.
    case scenarioRule
}
