import FaultlineHTTP
import FaultlineLog

/// The stream's log record: one per stream, started when its request head arrives, written
/// once when its exchange ends, however it ends.
extension HTTP2Stream {
    /// Starts the record of a request (nil head: it could not be translated); nil when no
    /// record is kept (neither the log, the HAR capture, the global journal nor a session wants one).
    /// Inlined: specialized for the caller's closure instead, it had the head wrapped in an
    /// optional (a retain and a release of each of its buffers) before the call, log off included.
    @discardableResult @inline(__always)
    func startTrace(_ head: @autoclosure () -> HTTPHead?, inSession: Bool = false) -> ExchangeTrace? {
        let trace = ExchangeTrace.start(head(), log: context.snapshot.log, scheme: connection.scheme, now: context.loop.now,
                                        clientProtocol: .http2, journaled: inSession || context.state.keepsExchangeRecords)
        connection.streamsBegun += 1
        if let trace {
            trace.http2StreamID = id
            trace.attempt = connection.streamsBegun
            trace.connection = connection.number
        }
        self.trace = trace
        return trace
    }

    /// Writes the record of the stream's exchange, if one was started.
    func endTrace() {
        guard let trace else { return }
        self.trace = nil
        trace.finish(client: (connection.clientIP, connection.clientPort), now: context.loop.now, state: context.state)
    }
}
