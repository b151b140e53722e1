import FaultlineHTTP
import FaultlineLog

/// The exchange's log record: started when a request head arrives (or fails to parse),
/// filled in as the exchange runs, written once when it ends, however it ends.
extension DownstreamConnection {
    /// Starts the record of a request (nil: it could not be parsed); nil when no record is
    /// kept (neither the log, the HAR capture, the global journal nor a session wants one).
    @discardableResult
    func startTrace(_ head: @autoclosure () -> HTTPHead?, log: TrafficLog, inSession: Bool = false) -> ExchangeTrace? {
        let trace = ExchangeTrace.start(head(), log: log, scheme: scheme, now: context.loop.now,
                                        journaled: inSession || context.state.keepsExchangeRecords)
        requestsBegun += 1
        if let trace {
            trace.attempt = requestsBegun
            trace.connection = number
        }
        self.trace = trace
        return trace
    }

    /// Starts the record of a request read whole. Whether one is kept is asked first: an
    /// autoclosure over a borrowed head was compiled into a copy of it made on every request,
    /// log off included (a retain and a release per buffer).
    func startTrace(reading head: borrowing HTTPHead, log: TrafficLog, inSession: Bool) -> ExchangeTrace? {
        guard ExchangeTrace.isWanted(log: log, journaled: inSession || context.state.keepsExchangeRecords) else {
            return startTrace(nil, log: log, inSession: inSession)
        }
        return startTrace(copy head, log: log, inSession: inSession)
    }

    /// Writes the record of the exchange that just ended, if one was started.
    func endTrace() {
        guard let trace else { return }
        self.trace = nil
        trace.finish(client: (clientIP, clientPort), now: context.loop.now, state: context.state)
    }

    /// A record of its own for a client whose TLS handshake failed (`log.tls_events`).
    func logClientTLSFailure(_ reason: String) {
        let log = context.snapshot.log
        guard log.tlsEvents else { return }
        var record = LogRecord(kind: .tls)
        record.clientAddress = clientIP
        record.clientPort = clientPort
        record.scheme = "https"
        record.setError(type: "tls_handshake", message: reason, policy: log.policy)
        record.setMessage("client TLS handshake failed", policy: log.policy)
        log.write(event: record)
    }
}
