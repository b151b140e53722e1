#if canImport(Glibc)
import Glibc
#endif

/// Writes encoded records off the hot path: `write(_:)` encodes on the caller's thread
/// and appends to a bounded in-memory queue (default 10 000 records or 16 MiB); one
/// dedicated writer thread drains it with blocking `write(2)`. When the queue is full the
/// record is dropped and counted, so a slow disk or a pipe nobody reads never blocks
/// the caller.
public final class LogSink: Sendable {
    /// How records are encoded.
    public let format: LogFormat
    /// Whether the destination is a terminal (`isatty`), which `auto` formats go by.
    public let isTerminal: Bool
    /// The destination.
    public let destination: LogDestination
    private let core: LogSinkCore

    /// Opens `destination` and starts the writer. `format` is `"json"`, `"text"` or
    /// `"auto"` (text on a terminal, else JSON). Throws, naming the path and the system's
    /// reason, when a file cannot be opened.
    public init(
        destination: LogDestination, format: String = "auto",
        maxRecords: Int = 10_000, maxBytes: Int = 16 << 20
    ) throws(LogSinkError) {
        let fd: Int32
        let owned: Bool
        switch destination {
        case .stdout: (fd, owned) = (STDOUT_FILENO, false)
        case .stderr: (fd, owned) = (STDERR_FILENO, false)
        case .fileDescriptor(let descriptor): (fd, owned) = (descriptor, false)
        case .file(let path): (fd, owned) = (try LogFileOpener.open(path), true)
        }
        self.destination = destination
        isTerminal = isatty(fd) == 1
        self.format = LogFormat.resolve(format, isTerminal: isTerminal)
        let core = LogSinkCore(maxRecords: maxRecords, maxBytes: maxBytes)
        self.core = core
        do {
            try WriterThread.start { core.run(fd: fd, owned: owned) }
        } catch {
            if owned { Glibc.close(fd) }
            throw error
        }
    }

    deinit {
        core.queue.withLock { $0.stopping = true }
        core.wake.post()
    }

    /// Encodes `record` (what `scope` shows of it) and queues it; false when it was dropped
    /// (queue full or closed).
    @discardableResult
    public func write(_ record: LogRecord, scope: LogLineScope = .all) -> Bool {
        switch format {
        case .json: JSONLineEncoder.withLine(record, scope: scope) { core.enqueue($0) }
        case .text: format.encode(record, scope: scope).withUnsafeBytes { core.enqueue($0) }
        }
    }

    /// Queues an already encoded line (it should end in `\n`); false when dropped.
    @discardableResult
    public func write(line: [UInt8]) -> Bool {
        line.withUnsafeBytes { core.enqueue($0) }
    }

    /// Records dropped so far because the queue was full (or the sink closed).
    public var droppedCount: Int { core.dropped.load(ordering: .relaxed) }

    /// Batches whose `write(2)` failed so far (their records are lost).
    public var failedWriteCount: Int { core.failedWrites.load(ordering: .relaxed) }

    /// The errno of the last failed write, 0 if none.
    public var lastWriteErrno: Int32 { core.lastWriteError.load(ordering: .relaxed) }

    /// Reopens a file destination at the same path (after log rotation, on SIGHUP). On
    /// failure the old file stays in use and the error is thrown. Other destinations:
    /// nothing to do.
    public func reopen() throws(LogSinkError) {
        guard case .file(let path) = destination else { return }
        let fd = try LogFileOpener.open(path)
        let previous = core.queue.withLock { state -> Int32? in
            defer { state.replacement = fd }
            return state.replacement
        }
        if let previous { Glibc.close(previous) }
        core.wake.post()
    }

    /// Waits until every record queued before the call has been handed to `write(2)`, or
    /// `timeout` seconds have passed; false on timeout (e.g. a stuck pipe).
    @discardableResult
    public func flush(timeout: Double) -> Bool {
        core.flush(timeout: timeout)
    }

    /// Stops accepting records, lets the writer drain the queue and close a file, and
    /// waits up to `timeout` seconds for it; false on timeout.
    @discardableResult
    public func close(timeout: Double) -> Bool {
        core.close(timeout: timeout)
    }
}
