import FaultlineHTTP

/// Upstream events: the connection's progress and the response it relays.
extension ExchangeMachine {
    /// The adapter took or opened the connection `connectUpstream` asked for.
    mutating func upstreamAttached(connecting: Bool) -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .awaitingUpstream(var attempt) = state, attempt.link == .attaching else { return actions }
        attempt.link = connecting ? .connecting : .connected
        state = .awaitingUpstream(attempt)
        if connecting {
            arm(.upstreamConnect, setup.timeouts.connectMs, &actions)
        } else {
            armWhileRequestFlows(&actions)
        }
        return actions
    }

    /// The TCP (and TLS) handshake with the upstream completed.
    mutating func upstreamConnected() -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .awaitingUpstream(var attempt) = state else { return actions }
        attempt.link = .connected
        state = .awaitingUpstream(attempt)
        armWhileRequestFlows(&actions)
        return actions
    }

    /// The upstream's address is being looked up (a forward-proxy host) before the connect:
    /// as during a delay, the request body is held, until `faultStepDue(.contactUpstream)`.
    mutating func upstreamLookupStarted() -> ExchangeActions {
        if case .awaitingUpstream = state { state = .delaying }
        return ExchangeActions()
    }

    /// The upstream connection failed (it is closed already); `attempt` tells whether the
    /// request may go again on a fresh connection.
    mutating func upstreamFailed(_ failure: UpstreamFailure, attempt facts: UpstreamAttemptFacts) -> ExchangeActions {
        var actions = ExchangeActions()
        switch state {
        case .tunnel:
            end(.closeClient(.graceful), &actions)
        case .streamingResponse, .drainingPacer, .resetting:
            // Never let a cut response look complete: close instead of ending the body.
            note(failure.error, failure.message, &actions)
            abort(&actions)
        case .awaitingUpstream:
            if willRetry(after: failure, attempt: facts) {
                state = .awaitingUpstream(UpstreamAttempt(number: 2))
                actions.append(.connectUpstream(fresh: true, requestComplete: requestComplete))
                return actions
            }
            note(failure.error, failure.message, &actions)
            failBeforeResponse(status: failure.status, message: failure.message, contentType: failure.contentType, &actions)
        case .admitted, .awaitingRequestEnd, .delaying, .hanging, .answered, .done:
            break
        }
        return actions
    }

    /// Whether `upstreamFailed(failure, attempt:)` would try again rather than end the exchange.
    func willRetry(after failure: UpstreamFailure, attempt facts: UpstreamAttemptFacts) -> Bool {
        guard case .awaitingUpstream(let attempt) = state else { return false }
        return attempt.number == 1 && facts.allowRetry(after: failure, idempotent: setup.isIdempotent)
    }

    /// A response head arrived; a rewrite fault changes `head` in place before the adapter
    /// writes it.
    mutating func responseHeadReceived(_ head: inout HTTPHead) -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .awaitingUpstream = state else { return actions }
        if head.isInterim {
            // HTTP/1.0 clients do not understand interim responses.
            if setup.clientMinorVersion >= 1 { actions.append(.writeInterimHead) }
            return actions
        }
        if head.status == 101 {
            guard setup.upgradeRequested else {
                failBeforeResponse(status: 502, message: UpstreamFailure.unexpectedUpgrade.message, &actions)
                return actions
            }
            state = .tunnel
            actions.append(.writeResponseHead(ResponseHeadShape(framing: .none, keepAlive: true, upgrade: true)))
            actions.append(.startTunnel)
            arm(.tunnelIdle, setup.timeouts.tunnelIdleMs, &actions)
            return actions
        }
        if let status = plan.replaceStatus {
            // The upstream answered; the fault answers instead.
            actions.append(.closeUpstream)
            respondWithFault(status, &actions)
            return actions
        }
        if let rewrite = plan.rewrite { head = head.rewritten(by: rewrite) }
        let paced = plan.firstByteDelayMs > 0 || plan.downBytesPerSecond > 0
        if paced {
            actions.append(.startPacer)
        }
        let framing = BodyFraming.forwarding(response: head, headRequest: setup.isHeadRequest,
                                             clientMinorVersion: setup.clientMinorVersion)
        let keepAlive = setup.clientKeepAlive && framing != .untilClose && mayKeepAlive
        let stream = ResponseStream(framing: framing, keepAlive: keepAlive, paced: paced)
        state = .streamingResponse(stream)
        actions.append(.writeResponseHead(ResponseHeadShape(framing: framing, keepAlive: keepAlive,
                                                            marked: setup.faultMarker != nil)))
        if paced {
            // A throttle holds the upstream back on purpose: its silence is not a timeout.
            disarm(&actions)
        } else {
            arm(.upstreamResponse, setup.timeouts.responseMs, &actions)
        }
        if plan.cutAfterBytes == 0 { cut(stream, &actions) }
        return actions
    }

    /// How the faults shape the response when `startPacer` asks for a pacer.
    var pacerSettings: PacerSettings {
        PacerSettings(bytesPerSecond: plan.downBytesPerSecond, chunkBytes: plan.chunkBytes,
                      holdMilliseconds: plan.firstByteDelayMs)
    }

    /// A response body part of `count` bytes arrived (the adapter holds it).
    mutating func responseBodyReceived(count: Int) -> ExchangeActions {
        var actions = ExchangeActions()
        // No body for the client: a status rewritten to 204/304, or HEAD.
        guard case .streamingResponse(var stream) = state, stream.framing != .none else { return actions }
        var forwarded = max(0, count)
        var cutHere = false
        if let cut = plan.cutAfterBytes {
            let remaining = cut - stream.bodyBytesOut
            guard remaining > 0 else { return actions }
            if forwarded >= remaining {
                forwarded = remaining
                cutHere = true
            }
        }
        let first = stream.bodyBytesOut == 0
        // Saturating: an endless upstream body must not trap the loop.
        let (sum, overflow) = stream.bodyBytesOut.addingReportingOverflow(forwarded)
        stream.bodyBytesOut = overflow ? Int.max : sum
        state = .streamingResponse(stream)
        actions.append(.forwardResponseBody(ResponseBodyPart(
            count: forwarded, corruptFirstByte: plan.corruptJSON && first && forwarded > 0,
            chunked: stream.framing == .chunked)))
        if !stream.paced { arm(.upstreamResponse, setup.timeouts.responseMs, &actions) }
        if cutHere { cut(stream, &actions) }
        return actions
    }

    /// The response is complete.
    mutating func responseEnded() -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .streamingResponse(let stream) = state else { return actions }
        actions.append(.endResponseBody(chunked: stream.framing == .chunked))
        // Only a request written to its end leaves a connection another exchange may use;
        // the pool still checks that the response left it clean.
        actions.append(requestComplete ? .releaseUpstream : .closeUpstream)
        disarm(&actions)
        let keepAlive = stream.keepAlive && requestComplete
        if stream.paced {
            state = .drainingPacer(.finish(keepAlive: keepAlive))
            actions.append(.awaitPacerDrain)
        } else {
            end(.finish(keepAlive: keepAlive), &actions)
        }
        return actions
    }

    /// A byte crossed the tunnel (either way).
    mutating func tunnelActivity() -> ExchangeActions {
        var actions = ExchangeActions()
        if state == .tunnel { arm(.tunnelIdle, setup.timeouts.tunnelIdleMs, &actions) }
        return actions
    }

    private mutating func armWhileRequestFlows(_ actions: inout ExchangeActions) {
        if requestComplete {
            arm(.upstreamResponse, setup.timeouts.responseMs, &actions)
        } else {
            arm(.clientBody, setup.timeouts.clientIdleMs, &actions)
        }
    }
}
