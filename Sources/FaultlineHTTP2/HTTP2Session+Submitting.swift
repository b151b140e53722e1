public import FaultlineHTTP
private import CNghttp2

extension HTTP2Session {
    /// Queues a response head on a peer's stream (server role). `fields` starts with `:status`
    /// and has lowercase names (`HTTPHead.http2ResponseFields()` builds it). Without
    /// `endStream` the body follows through `sendBody` and `finishBody`.
    public func submitResponse(streamID: Int32, fields: HTTPHeaders, endStream: Bool) throws(HTTP2Failure) {
        let state = try stream(streamID)
        let status = withNameValues(fields) { submitResponse(streamID: streamID, $0, endStream: endStream) }
        guard status == 0 else { throw Self.failure(status) }
        state.outbound = endStream ? .done : .open(deferred: false)
    }

    /// `submitResponse` for fields that `body` writes into temporary room (at most
    /// `byteCapacity` bytes of lines, `fieldCapacity` fields): no array is made for a head that
    /// nghttp2 copies anyway. The names may be in any case: nghttp2 lowercases each name as it
    /// copies the head (`NGHTTP2_NV_FLAG_NO_COPY_NAME` is never set).
    public func submitResponse(streamID: Int32, byteCapacity: Int, fieldCapacity: Int, endStream: Bool,
                               writing body: (inout HTTPFieldsWriter) -> Void) throws(HTTP2Failure) {
        let state = try stream(streamID)
        let status = HTTPFieldsWriter.withTemporaryRoom(byteCapacity: byteCapacity, fieldCapacity: fieldCapacity,
                                                        writing: body) { lines, fields in
            withNameValues(lines: lines, fields: fields) { submitResponse(streamID: streamID, $0, endStream: endStream) }
        }
        guard status == 0 else { throw Self.failure(status) }
        state.outbound = endStream ? .done : .open(deferred: false)
    }

    /// Hands nghttp2 a response head, with the data provider unless the stream ends with it.
    private func submitResponse(streamID: Int32, _ list: UnsafeBufferPointer<nghttp2_nv>, endStream: Bool) -> Int32 {
        guard !endStream else { return nghttp2_submit_response(session, streamID, list.baseAddress, list.count, nil) }
        var provider = dataProvider()
        return nghttp2_submit_response(session, streamID, list.baseAddress, list.count, &provider)
    }

    /// Queues a 1xx response head (server role); the final response follows.
    public func submitInformational(streamID: Int32, fields: HTTPHeaders) throws(HTTP2Failure) {
        _ = try stream(streamID)
        let status = withNameValues(fields) { list in
            nghttp2_submit_headers(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, nil, list.baseAddress, list.count, nil)
        }
        guard status >= 0 else { throw Self.failure(status) }
    }

    /// Opens a stream with a request head (client role) and returns its id. `fields` starts with
    /// the pseudo-header fields (`HTTPHead.http2RequestFields` builds it).
    public func submitRequest(fields: HTTPHeaders, endStream: Bool) throws(HTTP2Failure) -> Int32 {
        var provider = dataProvider()
        let streamID = withNameValues(fields) { list in
            endStream ? nghttp2_submit_request(session, nil, list.baseAddress, list.count, nil, nil)
                : nghttp2_submit_request(session, nil, list.baseAddress, list.count, &provider, nil)
        }
        guard streamID > 0 else { throw Self.failure(streamID) }
        let state = makeStreamState()
        state.outbound = endStream ? .done : .open(deferred: false)
        streams[streamID] = state
        return streamID
    }

    /// Queues body bytes on a stream whose head was submitted without END_STREAM. They leave
    /// as the peer's flow-control windows allow; `queuedOutboundBytes` tells how many wait.
    public func sendBody(streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard let state = streams[streamID], !bytes.isEmpty else { return }
        switch state.outbound {
        case .open(let deferred):
            state.enqueue(bytes)
            if deferred { resume(streamID, state) }
        case .idle, .finishing, .done:
            break
        }
    }

    /// `sendBody` for bytes in an array.
    public func sendBody(streamID: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { sendBody(streamID: streamID, $0) }
    }

    /// Ends a stream's body, with trailer fields (lowercase names) if given and not empty.
    public func finishBody(streamID: Int32, trailers: HTTPHeaders? = nil) {
        guard let state = streams[streamID], case .open(let deferred) = state.outbound else { return }
        state.outbound = .finishing(trailers: trailers.flatMap { $0.count > 0 ? $0 : nil })
        if deferred { resume(streamID, state) }
    }

    /// Resets a stream with `errorCode`; its queued body is dropped. `answersPeerError`: the
    /// reset refuses a malformed request of the peer's, so it counts against the stream-reset
    /// limit like the resets nghttp2 sends for the errors it finds itself (server role).
    public func resetStream(streamID: Int32, errorCode: HTTP2ErrorCode, answersPeerError: Bool = false) {
        guard let session else { return }
        streams[streamID]?.discardQueue()
        streams[streamID]?.outbound = .done
        ownResets[streamID] = answersPeerError
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode.rawValue)
    }

    /// The first step of a graceful shutdown (server role): a GOAWAY with the highest stream id,
    /// so streams already in flight are still accepted. `goAway` follows after a round trip.
    public func submitShutdownNotice() {
        guard let session, role == .server else { return }
        nghttp2_submit_shutdown_notice(session)
    }

    /// Queues GOAWAY: streams above `lastStreamID` (default: the last processed one) are refused,
    /// streams at or below it go on. With NO_ERROR this is the final step of a graceful shutdown;
    /// with another code the owner closes the connection once `send(into:)` has written it.
    public func goAway(errorCode: HTTP2ErrorCode, lastStreamID: Int32? = nil, debugData: [UInt8] = []) {
        guard let session else { return }
        let last = max(0, lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session))
        debugData.withUnsafeBufferPointer { debug in
            _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, errorCode.rawValue,
                                      debug.baseAddress, debug.count)
        }
    }

    /// Queues GOAWAY with `errorCode` and stops the session: nothing is read or sent after it.
    public func terminate(errorCode: HTTP2ErrorCode) {
        guard let session else { return }
        nghttp2_session_terminate_session(session, errorCode.rawValue)
    }

    /// Queues a PING (nghttp2 answers the peer's PINGs itself).
    public func ping() {
        guard let session else { return }
        nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
    }

    /// The data provider of every stream with a body: it reads the stream's outbound queue.
    private func dataProvider() -> nghttp2_data_provider {
        var provider = nghttp2_data_provider()
        provider.read_callback = { _, streamID, buffer, length, flags, _, userData in
            guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
            return HTTP2Callbacks.with(userData, otherwise: Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)) { owner in
                owner.readBody(streamID: streamID, into: buffer, length: length, flags: flags)
            }
        }
        return provider
    }

    /// The smallest DATA payload `writeData` writes itself. In a callgrind run of 64-byte h2
    /// responses, writing every payload so cost about 460 more instructions per response than
    /// copying it; a 16 KiB frame saves a 16 KiB copy.
    static let noCopyMinimum = 4096

    /// The data provider's read: queued bytes for the next DATA frame, then END_STREAM or
    /// trailers once the body is done. A payload of `noCopyMinimum` bytes or more is not
    /// copied into `buffer` (`NGHTTP2_DATA_FLAG_NO_COPY`): `writeData` appends it to the output
    /// straight from the queue, in the same `mem_send` call, so the queue cannot change in
    /// between. A smaller one is copied: the extra callback costs more than the copy it saves.
    func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int,
                  flags: UnsafeMutablePointer<UInt32>) -> Int {
        guard let state = streams[streamID] else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let hadBytes = state.queuedCount > 0
        let available = min(length, state.queuedCount)
        let count: Int
        let left: Int
        if available >= Self.noCopyMinimum {
            flags.pointee |= NGHTTP2_DATA_FLAG_NO_COPY.rawValue
            count = available
            left = state.queuedCount - available
        } else {
            count = state.dequeue(into: buffer, length: length)
            left = state.queuedCount
        }
        guard left == 0 else { return count }
        switch state.outbound {
        case .finishing(let trailers):
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            if let trailers {
                let status = withNameValues(trailers) { list in
                    nghttp2_submit_trailer(session, streamID, list.baseAddress, list.count)
                }
                // Without trailers queued, END_STREAM must ride on this DATA frame instead.
                if status == 0 { flags.pointee |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue }
            }
            state.outbound = .done
        case .open:
            if hadBytes { events.append(.outboundDrained(streamID: streamID)) }
            if count == 0 {
                state.outbound = .open(deferred: true)
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        case .idle, .done:
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        }
        return count
    }

    /// Writes a DATA frame nghttp2 framed without its payload (`readBody` set
    /// `NGHTTP2_DATA_FLAG_NO_COPY`): the 9-byte frame header, then `length` bytes from the
    /// stream's queue, appended to the output `send(into:)` is filling. Returns 0,
    /// `NGHTTP2_ERR_PAUSE` once the output reached its limit (the next `send(into:)` goes on),
    /// or a failure that resets the stream before any byte is written. Frames are never padded:
    /// nghttp2 pads only through a select-padding callback, and none is installed.
    func writeData(streamID: Int32, header: UnsafeRawBufferPointer, length: Int, padding: Int) -> Int32 {
        guard let target = sendTarget, let state = streams[streamID], header.count == 9, padding == 0,
              state.queuedCount >= length else {
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
        }
        target.output.pointee.append(contentsOf: header)
        state.dequeue(length, appendingTo: &target.output.pointee)
        return target.output.pointee.count >= target.limit ? NGHTTP2_ERR_PAUSE.rawValue : 0
    }

    /// The state of an open stream, or a failure naming the stream as closed.
    private func stream(_ streamID: Int32) throws(HTTP2Failure) -> HTTP2StreamState {
        guard session != nil, let state = streams[streamID] else {
            throw Self.failure(NGHTTP2_ERR_STREAM_CLOSED.rawValue)
        }
        return state
    }

    /// Lets a deferred data provider run again.
    private func resume(_ streamID: Int32, _ state: HTTP2StreamState) {
        guard let session else { return }
        switch state.outbound {
        case .open: state.outbound = .open(deferred: false)
        case .idle, .finishing, .done: break
        }
        nghttp2_session_resume_data(session, streamID)
    }

    /// Calls `body` with `fields` as nghttp2 name/value pairs pointing into their storage. The
    /// pairs live on the stack for the call (nghttp2 copies them): one head is no heap allocation.
    private func withNameValues<R>(_ fields: HTTPHeaders, _ body: (UnsafeBufferPointer<nghttp2_nv>) -> R) -> R {
        fields.bytes.withUnsafeBytes { raw in
            fields.fields.withUnsafeBufferPointer { withNameValues(lines: raw, fields: $0, body) }
        }
    }

    /// `withNameValues` for field lines and entries in memory (`HTTPFieldsWriter`'s room).
    private func withNameValues<R>(lines: UnsafeRawBufferPointer, fields: UnsafeBufferPointer<HTTPHeaders.Field>,
                                   _ body: (UnsafeBufferPointer<nghttp2_nv>) -> R) -> R {
        let base = UnsafeMutablePointer(mutating: lines.baseAddress?.assumingMemoryBound(to: UInt8.self))
        return withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: fields.count) { list in
            for (index, field) in fields.enumerated() {
                list.initializeElement(at: index, to: nghttp2_nv(
                    name: base.map { $0 + Int(field.start) }, value: base.map { $0 + Int(field.valueStart) },
                    namelen: Int(field.nameEnd - field.start), valuelen: Int(field.valueEnd - field.valueStart),
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
            }
            return body(UnsafeBufferPointer(list))
        }
    }
}
