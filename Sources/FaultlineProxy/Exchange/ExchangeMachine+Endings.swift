import FaultlineConfig

/// Timers, fault steps and the ways an exchange ends.
extension ExchangeMachine {
    /// The deadline the exchange armed expired (the adapter disarmed it).
    mutating func deadlineExpired(_ kind: ConnectionDeadline.Kind) -> ExchangeActions {
        var actions = ExchangeActions()
        guard !isDone, state != .admitted else { return actions }
        deadline = nil
        switch kind {
        case .clientBody:
            if state.responseStarted {
                abort(&actions)
            } else {
                actions.append(.closeUpstream)
                answerLocally(status: 408, message: "request body stalled for \(setup.timeouts.clientIdleMs) ms",
                              closing: true, &actions)
            }
        case .upstreamConnect, .upstreamResponse:
            let name = setup.upstreamName
            if state.responseStarted {
                note(.upstreamTimeout, "upstream \(name) stalled mid-response", &actions)
                abort(&actions)
                return actions
            }
            let message = kind == .upstreamConnect
                ? "upstream \(name) did not accept the connection within \(setup.timeouts.connectMs) ms"
                : "upstream \(name) did not answer within \(setup.timeouts.responseMs) ms"
            // A 504 notes `upstream_timeout` with this message.
            failBeforeResponse(status: 504, message: message, &actions)
        case .tunnelIdle:
            note(.tunnelIdle, "no byte crossed the tunnel for \(setup.timeouts.tunnelIdleMs) ms", &actions)
            end(.closeClient(.now), &actions)
        case .clientHeader, .clientIdle:
            end(.closeClient(.now), &actions)
        }
        return actions
    }

    /// A step `scheduleFaultStep` asked for is due.
    mutating func faultStepDue(_ step: FaultStep) -> ExchangeActions {
        var actions = ExchangeActions()
        switch (step, state) {
        case (.contactUpstream, .delaying):
            state = .awaitingUpstream(UpstreamAttempt())
            actions.append(.connectUpstream(fresh: false, requestComplete: requestComplete))
            actions.append(.sendHeldRequest)
        case (.endHang(let reset), .hanging):
            end(.closeClient(reset ? .reset : .now), &actions)
        case (.resetAfterCut, .resetting):
            end(.closeClient(.reset), &actions)
        default:
            break
        }
        return actions
    }

    /// The pacer handed every byte to the client (`awaitPacerDrain`).
    mutating func pacerDrained() -> ExchangeActions {
        var actions = ExchangeActions()
        guard case .drainingPacer(let ending) = state else { return actions }
        switch ending {
        case .finish(let keepAlive):
            end(.finish(keepAlive: keepAlive), &actions)
        case .cut(let reset):
            endCut(reset: reset, &actions)
        }
        return actions
    }

    // MARK: Building blocks

    mutating func arm(_ kind: ConnectionDeadline.Kind, _ milliseconds: Int, _ actions: inout ExchangeActions) {
        deadline = kind
        actions.append(.armDeadline(kind, milliseconds: milliseconds))
    }

    mutating func disarm(_ actions: inout ExchangeActions) {
        deadline = nil
        actions.append(.disarmDeadline)
    }

    /// Notes why the exchange failed, unless an earlier, more specific cause was noted.
    mutating func note(_ error: ExchangeError, _ message: String, _ actions: inout ExchangeActions) {
        guard failure == nil else { return }
        failure = ExchangeFailure(error: error, message: message)
        actions.append(.noteError(error))
    }

    /// Ends the exchange with `action` (`finish` or `closeClient`).
    mutating func end(_ action: ExchangeAction, _ actions: inout ExchangeActions) {
        state = .done
        actions.append(action)
    }

    /// The client gave up (or a stall counts as such): close now.
    mutating func abort(_ actions: inout ExchangeActions) {
        note(.clientClosed, "the connection closed before the exchange was complete", &actions)
        end(.closeClient(.now), &actions)
    }

    /// Answers from Faultline itself. The connection stays open only if the request was read
    /// to its end, the client allows keep-alive, and nothing asks to close (`closing`).
    mutating func answerLocally(status: Int, message: String, contentType: String = "text/plain; charset=utf-8",
                                closing: Bool, _ actions: inout ExchangeActions) {
        let keepAlive = !closing && requestComplete && setup.clientKeepAlive && mayKeepAlive
        let response = LocalResponse(status: status, message: message, contentType: contentType, keepAlive: keepAlive,
                                     includeBody: !setup.isHeadRequest)
        if let error = response.error { note(error, message, &actions) }
        answer = .local(response)
        state = .answered
        actions.append(.writeLocalResponse)
        actions.append(.finish(keepAlive: keepAlive))
    }

    /// A gateway error before any response byte was sent.
    mutating func failBeforeResponse(status: Int, message: String, contentType: String = "text/plain; charset=utf-8",
                                     _ actions: inout ExchangeActions) {
        actions.append(.closeUpstream)
        answerLocally(status: status, message: message, contentType: contentType, closing: false, &actions)
    }

    /// Answers with a status fault's response (synthesized, or replacing the upstream's).
    mutating func respondWithFault(_ status: StatusFault, _ actions: inout ExchangeActions) {
        let keepAlive = requestComplete && setup.clientKeepAlive && mayKeepAlive
        answer = .fault(status, keepAlive: keepAlive)
        state = .answered
        actions.append(.writeFaultResponse)
        actions.append(.finish(keepAlive: keepAlive))
    }

    /// Carries out a fault that replaces the whole exchange; the request has been read.
    mutating func runTerminalFault(_ terminal: FaultPlan.Terminal, _ actions: inout ExchangeActions) {
        disarm(&actions)
        let names = plan.names.joined(separator: ", ")
        switch terminal {
        case .status(let status):
            respondWithFault(status, &actions)
        case .reset:
            note(.fault, "connection reset by fault \(names)", &actions)
            end(.closeClient(.reset), &actions)
        case .close:
            note(.fault, "connection closed by fault \(names)", &actions)
            end(.closeClient(.now), &actions)
        case .hang(let hang):
            note(.fault, "hung by fault \(names)", &actions)
            // Nothing is sent; without a duration the client's own timeout ends it (its EOF
            // aborts the exchange like any client that gives up).
            state = .hanging
            if let ms = hang.ms {
                actions.append(.scheduleFaultStep(.endHang(reset: hang.then == .reset), milliseconds: ms))
            }
        case .garbage:
            note(.fault, "garbage reply by fault \(names)", &actions)
            actions.append(.writeGarbage)
            end(.closeClient(.graceful), &actions)
        case .badChunkFraming:
            actions.append(.writeBadChunkFraming)
            note(.fault, "malformed chunked body by fault \(names)", &actions)
            end(.closeClient(.graceful), &actions)
        case .refuseStream(let code):
            // `requestHeadReceived` refuses before this point; kept so the switch is whole.
            note(.fault, "request refused (\(code)) by fault \(names)", &actions)
            end(.closeClient(.refuseStream(code)), &actions)
        case .goAway(let code):
            note(.fault, "connection shut down (GOAWAY \(code)) by fault \(names)", &actions)
            end(.closeClient(.goAway(code)), &actions)
        }
    }

    /// Ends a response early (truncate, close or reset after N bytes): what was emitted is
    /// sent, then the connection ends so the client sees the cut.
    mutating func cut(_ stream: ResponseStream, _ actions: inout ExchangeActions) {
        actions.append(.closeUpstream)
        let reset = plan.cutWithReset
        note(.fault, "response cut after \(stream.bodyBytesOut) body bytes by fault "
            + plan.names.joined(separator: ", ") + (reset ? " (connection reset)" : " (connection closed)"), &actions)
        if stream.paced {
            state = .drainingPacer(.cut(reset: reset))
            actions.append(.awaitPacerDrain)
        } else {
            endCut(reset: reset, &actions)
        }
    }

    private mutating func endCut(reset: Bool, _ actions: inout ExchangeActions) {
        if reset {
            // Give the bytes a moment to leave before the RST discards what is unsent.
            state = .resetting
            actions.append(.scheduleFaultStep(.resetAfterCut, milliseconds: 50))
        } else {
            end(.closeClient(.graceful), &actions)
        }
    }
}
