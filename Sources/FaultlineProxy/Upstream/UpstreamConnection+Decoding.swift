import FaultlineHTTP

/// Turns the upstream's bytes into the owner's events; the stage changes they imply go
/// through the lifecycle's transitions.
extension UpstreamConnection {
    /// Decodes one read for `owner`: interim responses, then the final one.
    func decode(_ bytes: UnsafeRawBufferPointer, for owner: UpstreamLegOwner) {
        var input = bytes
        while true {
            let status = decoder.feed(input)
            deliver(decoder.events, from: input, to: owner)
            // The owner may have closed the connection while handling an event.
            guard lifecycle.owner != nil, !socket.isClosed else { return }
            switch status {
            case .needMore:
                return
            case .messageComplete(let consumed):
                // Bytes after a complete response mean the connection cannot be trusted again.
                switch lifecycle.messageEnded(reusable: consumed == input.count) {
                case .interim:
                    decoder.resume()
                    input = UnsafeRawBufferPointer(rebasing: input[consumed...])
                    if input.isEmpty { return }
                case .response(let owner):
                    owner.upstream(.http1(self), reported: .finished)
                    return
                case .ignored:
                    return
                }
            case .upgraded(let consumed):
                guard case .tunnel(let owner) = lifecycle else {
                    fail(.unexpectedUpgrade)
                    return
                }
                let rest = UnsafeRawBufferPointer(rebasing: input[consumed...])
                if !rest.isEmpty { owner.upstream(.http1(self), reported: .tunnelBytes(rest)) }
                return
            case .failed(let error):
                fail(.malformed(error.reason))
                return
            }
        }
    }

    /// The upstream closed while serving: a close-delimited response ends here, anything
    /// else was cut short.
    func finishAtEndOfInput() {
        guard case .serving(let owner, _, _) = lifecycle else { return }
        if case .failed = decoder.finish() {
            fail(.closedEarly)
            return
        }
        let ended = deliver(decoder.events, from: UnsafeRawBufferPointer(start: nil, count: 0), to: owner)
        guard lifecycle.owner != nil else { return }
        guard ended, case .response(let owner) = lifecycle.messageEnded(reusable: false) else {
            fail(.closedEarly)
            return
        }
        owner.upstream(.http1(self), reported: .finished)
        closeByUpstream()
    }

    /// Hands events to the owner; returns whether a message ended among them.
    @discardableResult
    private func deliver(_ events: [HTTP1DecoderEvent], from input: UnsafeRawBufferPointer,
                         to owner: UpstreamLegOwner) -> Bool {
        var ended = false
        for event in events {
            guard lifecycle.owner != nil else { return false }
            switch event {
            case .head:
                let status = decoder.head.status
                let kind: UpstreamConnectionLifecycle.Head = status == 101 ? .switchingProtocols
                    : decoder.head.isInterim ? .interim : .final(keepAlive: decoder.head.keepAlive)
                guard lifecycle.headArrived(kind) else {
                    fail(.malformed("a response head where none was expected"))
                    return false
                }
                owner.upstream(.http1(self), reported: .head(decoder.head))
            case .body(let range):
                owner.upstream(.http1(self), reported: .body(UnsafeRawBufferPointer(rebasing: input[range])))
            case .trailers:
                owner.upstream(.http1(self), reported: .trailers(decoder.trailers))
            case .end:
                ended = true
            }
        }
        return ended
    }
}
