/// Where a sink writes.
public enum LogDestination: Sendable, Equatable {
    /// Standard output.
    case stdout
    /// Standard error.
    case stderr
    /// A file, opened for appending (created with mode 0640, missing parent directories
    /// with 0750) and reopened by `LogSink.reopen()` after rotation.
    case file(path: String)
    /// An already open descriptor (a pipe, a socket); the sink does not close it.
    case fileDescriptor(Int32)
}
