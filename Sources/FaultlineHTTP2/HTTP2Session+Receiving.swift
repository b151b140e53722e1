import FaultlineHTTP
private import CNghttp2

extension HTTP2Session {
    /// A frame header arrived, before nghttp2 acts on the frame. A server refuses a HEADERS
    /// frame on a stream the client skipped: false stops nghttp2, and `receive` makes it a
    /// connection error (GOAWAY PROTOCOL_ERROR).
    func beginFrame(type: UInt8, streamID: Int32) -> Bool {
        guard role == .server, UInt32(type) == NGHTTP2_HEADERS.rawValue else { return true }
        if skippedStreams.headersBegin(streamID: streamID) { return true }
        callbackFailure = HTTP2Failure(code: NGHTTP2_ERR_PROTO.rawValue,
                                       message: "HEADERS on stream \(streamID), which the client skipped (RFC 9113 §5.1.1)")
        return false
    }

    /// A HEADERS frame starts: a new block on its stream (a new stream on a server).
    func beginHeaders(streamID: Int32) {
        if streams[streamID] == nil { streams[streamID] = makeStreamState() }
        collector.begin()
    }

    /// One field of the block; nghttp2 has already refused malformed ones (RFC 9113 §8.2).
    /// Blocks never interleave (RFC 9113 §4.3), so the field belongs to the block the collector
    /// holds, and no stream is looked up per field.
    func header(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        collector.add(name: name, value: value, sizeLimit: Int(settings.maxHeaderListSize))
    }

    /// A header block is complete: classify it and hand it out (or refuse it).
    func headersReceived(streamID: Int32, isRequest: Bool, endsStream: Bool) {
        guard let state = streams[streamID] else { return }
        if case .refused = collector.intake {
            events.append(.refused(streamID: streamID, .headerListTooLarge))
            collector.begin()
            return
        }
        let kind: HTTP2HeaderBlock.Kind
        if isRequest {
            kind = .request
        } else if let status = collector.statusSoFar {
            // A later block with :status is the final response after 1xx ones; without, trailers.
            kind = (100..<200).contains(status) ? .informational : .response
        } else {
            kind = .trailers
        }
        if kind == .request || kind == .response { state.sawHead = true }
        events.append(.headers(streamID: streamID, collector.makeBlock(kind: kind, endsStream: endsStream)))
        if endsStream { events.append(.endStream(streamID: streamID)) }
    }

    /// Body bytes: handed out at once; the connection window reopens now, the stream's only
    /// when its consumer calls `consume`.
    func dataReceived(streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
        connectionBytesToConsume += bytes.count
        guard streams[streamID] != nil else {
            // Nobody will consume bytes of a stream we no longer track.
            if let session { nghttp2_session_consume_stream(session, streamID, bytes.count) }
            return
        }
        events.append(.data(streamID: streamID, Array(bytes)))
    }

    /// The stream is closed in both directions or reset.
    func streamClosed(streamID: Int32, errorCode: HTTP2ErrorCode) {
        // A reset of the owner's that nghttp2 dropped (the stream was already closing).
        ownResets.removeValue(forKey: streamID)
        guard var state = streams.removeValue(forKey: streamID) else { return }
        events.append(.streamClosed(streamID: streamID, errorCode: errorCode))
        // Kept only when nothing else holds it: a new stream must never share a closed one's state.
        if spareStreamStates.count < Self.keptStreamStates, isKnownUniquelyReferenced(&state), state.reset() {
            spareStreamStates.append(state)
        }
    }

    /// A state for a new stream: a closed stream's, reset, when one is kept.
    func makeStreamState() -> HTTP2StreamState {
        spareStreamStates.popLast() ?? HTTP2StreamState()
    }
}
