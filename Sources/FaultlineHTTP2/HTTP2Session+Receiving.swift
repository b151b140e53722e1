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
        let state = streams[streamID] ?? HTTP2StreamState()
        streams[streamID] = state
        collector.begin()
        state.blockSize = 0
        state.blockTooLarge = false
    }

    /// One field of the block; nghttp2 has already refused malformed ones (RFC 9113 §8.2).
    func header(streamID: Int32, name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard let state = streams[streamID], !state.blockTooLarge else { return }
        // RFC 9113 §6.5.2: the uncompressed size plus 32 bytes of overhead per field. nghttp2
        // only announces the limit; enforcing it here bounds what one stream makes us hold.
        state.blockSize += name.count + value.count + 32
        if state.blockSize > Int(settings.maxHeaderListSize) {
            state.blockTooLarge = true
            collector.begin()
            return
        }
        collector.add(name: name, value: value)
    }

    /// A header block is complete: classify it and hand it out (or refuse it).
    func headersReceived(streamID: Int32, isRequest: Bool, endsStream: Bool) {
        guard let state = streams[streamID] else { return }
        if state.blockTooLarge {
            events.append(.refused(streamID: streamID, .headerListTooLarge))
            state.blockTooLarge = false
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
        guard streams.removeValue(forKey: streamID) != nil else { return }
        events.append(.streamClosed(streamID: streamID, errorCode: errorCode))
    }
}
