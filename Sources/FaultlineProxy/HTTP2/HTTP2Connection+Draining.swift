import FaultlineHTTP
import FaultlineHTTP2

/// Graceful shutdown and deadlines.
extension HTTP2Connection {
    /// How long clients get between the shutdown notice and the final GOAWAY: about a round
    /// trip, so streams the client sent before seeing the notice are still accepted.
    static let goAwayGraceMilliseconds = 200

    /// Process shutdown or reload: a GOAWAY announcing the highest stream id, then, a round trip
    /// later, the final GOAWAY with the last stream processed; streams in flight finish, then
    /// the connection closes.
    func drain() {
        guard case .open = phase else { return }
        phase = .draining(finalGoAwaySent: false)
        session.submitShutdownNotice()
        flush()
        context.loop.schedule(afterMilliseconds: Self.goAwayGraceMilliseconds) { [weak self] in
            self?.sendFinalGoAway()
        }
    }

    /// The second step of the graceful shutdown.
    private func sendFinalGoAway() {
        guard case .draining(finalGoAwaySent: false) = phase else { return }
        phase = .draining(finalGoAwaySent: true)
        session.goAway(errorCode: .noError)
        flush()
    }

    /// An immediate `goaway` fault: GOAWAY with `code` naming the last stream processed, then
    /// the connection closes once the frame is written; the streams still open end with it.
    func goAwayNow(_ code: HTTP2ErrorCode) {
        guard !phase.isClosed else { return }
        session.goAway(errorCode: code)
        phase = .draining(finalGoAwaySent: true)
        flush()
        if !phase.isClosed { close(now: false) }
    }

    /// Enforces the connection's idle deadline and each stream's own; called by the loop's sweep.
    func checkDeadline(now: UInt64) {
        if deadline.expired(now: now) != nil {
            deadline.disarm()
            if streams.isEmpty {
                // No request in time, or idle too long: say so (GOAWAY NO_ERROR) and close
                // once it is written.
                session.goAway(errorCode: .noError)
                phase = .draining(finalGoAwaySent: true)
                flush()
                if !phase.isClosed { close(now: false) }
                return
            }
        }
        for stream in streams.values {
            guard !phase.isClosed else { return }
            stream.checkDeadline(now: now)
        }
    }
}
