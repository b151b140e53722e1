/// Which files a rule may name. The config file is the operator's: its paths are trusted.
/// A rule sent to the admin API is not: it may only name files inside the config file's
/// directory, or none at all when the config did not come from a file.
enum FileConfinement: Equatable {
    /// Any path (the config file itself).
    case unconfined
    /// Only files whose real path (symbolic links and `..` resolved) is inside this directory.
    case within(String)
    /// No files: inline bodies only.
    case inlineOnly
}
