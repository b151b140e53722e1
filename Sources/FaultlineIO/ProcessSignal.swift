/// A process signal the command line acts on.
public enum ProcessSignal: Sendable, Equatable {
    /// SIGHUP: reload the configuration and reopen the log.
    case hangUp
    /// SIGTERM: stop.
    case terminate
    /// SIGINT: stop (Ctrl-C).
    case interrupt
}
