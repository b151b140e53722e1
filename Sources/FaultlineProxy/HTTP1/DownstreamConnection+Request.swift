import FaultlineHTTP
import FaultlineIO

/// The request side of the HTTP/1 codec: bytes in, exchange events out.
extension DownstreamConnection {
    /// Feeds request bytes to the decoder and reports what it found. A request the proxy
    /// answers itself ends inside this pass; the requests behind it are then decoded in the
    /// same pass, in order, and the first one that goes upstream leaves the rest queued.
    func decode(_ bytes: UnsafeRawBufferPointer) {
        let outermost = !decoding
        decoding = true
        defer {
            if outermost { decoding = false }
            releaseUpstreamCork()
        }
        var input = bytes
        messages: while true {
            if phase.isIdle {
                phase = .readingHead
                deadline.arm(.clientHeader, now: context.loop.now, milliseconds: context.snapshot.config.clientTimeouts.headerMs)
            }
            let status = decoder.feed(input)
            for event in decoder.events {
                guard !phase.isClosed else { return }
                switch event {
                case .head:
                    // Lent by the decoder: a copy would retain and release each of its buffers.
                    decoder.withHead { beginExchange($0) }
                case .body(let range):
                    let part = UnsafeRawBufferPointer(rebasing: input[range])
                    if case .holding(let held) = phase {
                        holdBody(part, of: held)
                        continue
                    }
                    guard let exchange else { continue }
                    run(exchange.machine.requestBodyReceived(count: part.count), on: exchange, inHand: .body(part))
                case .trailers:
                    if case .holding(let held) = phase {
                        held.trailers = decoder.trailers
                    } else {
                        exchange?.keepRequestTrailers(decoder.trailers)
                    }
                case .end:
                    if case .holding(let held) = phase {
                        release(held, ended: true)
                    } else if let exchange {
                        run(exchange.machine.requestEnded(), on: exchange)
                    }
                }
            }
            guard !phase.isClosed else { return }
            switch status {
            case .needMore:
                break messages
            case .messageComplete(let consumed):
                decoder.resume()
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                guard !rest.isEmpty else { break messages }
                if phase.isIdle {
                    // Answered already (by the proxy itself): the next request's turn.
                    input = rest
                    continue messages
                }
                pipelined.append(contentsOf: rest)
                if pipelined.count >= Self.pipelineLimit { socket.setReading(false) }
                break messages
            case .upgraded(let consumed):
                // Bytes after an upgrade request belong to the new protocol: hold them for the tunnel.
                if consumed < input.count { pipelined.append(contentsOf: input[consumed...]) }
                socket.setReading(false)
                break messages
            case .failed(let error):
                let message = "bad request: \(error.reason)"
                if let exchange {
                    run(exchange.machine.requestMalformed(status: error.status, message: message), on: exchange)
                } else {
                    writeLocalAndClose(LocalResponse(status: error.status, message: message, keepAlive: false))
                }
                return
            }
        }
        if isForwardListener, let connect = pendingConnect, !phase.isClosed, let forward {
            pendingConnect = nil
            beginConnect(connect, config: forward)
            return
        }
        if let exchange, !phase.isClosed {
            // A refused request that is not fully read never will be: it is answered now.
            run(exchange.machine.decodingPaused(), on: exchange)
        }
    }

    /// Decodes the queued bytes of pipelined requests (the exchange before them ended).
    func decodePipelined() {
        guard !decoding, !pipelined.isEmpty, !phase.isClosed else { return }
        let next = pipelined
        pipelined.removeAll(keepingCapacity: true)
        next.withUnsafeBytes { decode($0) }
    }

    /// A decoded request head: a CONNECT waits for the end of the pass; any other request gets
    /// its session, record and origin-form target, then is held for its body or routed.
    private func beginExchange(_ received: borrowing HTTPHead) {
        deadline.disarm()
        if isForwardListener && received.method == "CONNECT" {
            // Handled when the pass ends: what follows the head belongs to the tunnel.
            pendingConnect = copy received
            return
        }
        // The record keeps the target as received (its userinfo is redacted there); routing
        // and the upstream see the origin form.
        let membership = membership(of: received)
        let trace = startTrace(reading: received, log: context.snapshot.log, inSession: membership.session != nil)
        currentDestination = interception?.destination
        // The head is read where the decoder lends it and copied only when it is changed: a
        // copy of a head retains and releases each of its buffers, and a `consuming` head read
        // in several places was copied once per read.
        if isForwardListener, let forward {
            var head = copy received
            switch admitForward(&head, config: forward) {
            case .success(let admitted): currentDestination = admitted
            case .failure(let refusal):
                writeLocalAndClose(refusal.response)
                return
            }
            route(head, trace: trace, membership: membership)
        } else if let origin = received.originFormTarget {
            var head = copy received
            head.target = origin
            route(head, trace: trace, membership: membership)
        } else {
            route(received, trace: trace, membership: membership)
        }
    }

    /// Holds `head` for its body when a rule may read it, or starts its exchange now.
    private func route(_ head: borrowing HTTPHead, trace: ExchangeTrace?, membership: SessionMembership) {
        if holdsForBody(head, trace: trace, membership: membership) { return }
        startExchange(head, trace: trace, membership: membership, mayKeepAlive: !context.draining, startedAt: context.loop.now)
    }

    /// A connection-level answer (a head that did not parse or did not arrive in time):
    /// written, then the connection closes.
    func writeLocalAndClose(_ response: LocalResponse) {
        guard !phase.isClosed else { return }
        // No request was parsed: the answer gets a record of its own, whose id it carries.
        if trace == nil { startTrace(nil, log: context.snapshot.log) }
        writeOwnResponse(.local(response, requestID: trace?.visibleRequestID), exchange: nil)
        if let error = response.error { trace?.fail(error, response.message) }
        closeAfterFlush()
    }

    /// Relays client bytes to the upstream after a 101.
    func relayToUpstream(_ bytes: UnsafeRawBufferPointer, exchange: Exchange) {
        guard let upstream = exchange.upstream?.connection else { return }
        run(exchange.machine.tunnelActivity(), on: exchange)
        upstream.socket.write(bytes)
        if upstream.socket.pendingWriteBytes > 0 { socket.setReading(false) }
    }
}
