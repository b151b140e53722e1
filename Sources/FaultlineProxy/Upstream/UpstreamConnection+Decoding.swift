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
        // Matched in place: copying each event (a head holds its fields) out of the array
        // costs on every response.
        for index in events.indices {
            guard lifecycle.owner != nil else { return false }
            switch events[index] {
            case .head(let head):
                let kind: UpstreamConnectionLifecycle.Head = head.status == 101 ? .switchingProtocols
                    : head.isInterim ? .interim : .final(keepAlive: head.keepAlive)
                guard lifecycle.headArrived(kind) else {
                    fail(.malformed("a response head where none was expected"))
                    return false
                }
                owner.upstream(.http1(self), reported: .head(head))
            case .body(let range):
                owner.upstream(.http1(self), reported: .body(UnsafeRawBufferPointer(rebasing: input[range])))
            case .trailers(let trailers):
                owner.upstream(.http1(self), reported: .trailers(trailers))
            case .end:
                ended = true
            }
        }
        return ended
    }
}
