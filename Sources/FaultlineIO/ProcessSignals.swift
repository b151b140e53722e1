private import CLinux

/// Synchronous signal handling for the process's main thread, so the command line needs no
/// C module: signals are blocked everywhere and taken one at a time by the thread that waits.
public enum ProcessSignals {
    /// Blocks SIGHUP, SIGTERM, SIGINT and SIGPIPE in the calling thread and in every thread
    /// it starts afterwards (event loops included), so that only `next()` takes them and a
    /// write to a closed socket returns EPIPE instead of killing the process. Call it before
    /// starting any thread.
    public static func block() {
        _ = cl_block_signals()
    }

    /// Waits for SIGHUP, SIGTERM or SIGINT; nil if the wait itself failed.
    public static func next() -> ProcessSignal? {
        switch cl_wait_signal() {
        case CL_SIGHUP: .hangUp
        case CL_SIGTERM: .terminate
        case CL_SIGINT: .interrupt
        default: nil
        }
    }
}
