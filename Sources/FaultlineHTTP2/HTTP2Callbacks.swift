import FaultlineHTTP
private import CNghttp2

/// The C callbacks nghttp2 calls during `mem_recv` and `mem_send`; each finds its
/// `HTTP2Session` through the user-data pointer and hands over to a Swift method.
enum HTTP2Callbacks {
    /// Runs `body` on the session a callback's user data points at (set in
    /// `HTTP2Session.open`), or returns `otherwise` without one. The session is not retained:
    /// nghttp2 calls back only from inside the session's own calls into it, while the session
    /// is alive, and a retain and release per callback (about a dozen per request) showed in
    /// profiles.
    @inline(__always)
    static func with<R>(_ userData: UnsafeMutableRawPointer?, otherwise: R, _ body: (HTTP2Session) -> R) -> R {
        guard let userData else { return otherwise }
        return Unmanaged<HTTP2Session>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
    }

    /// Installs every callback on `callbacks` (an `nghttp2_session_callbacks *`).
    static func install(on callbacks: OpaquePointer?) {
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, userData in
            guard let header else { return 0 }
            return HTTP2Callbacks.with(userData, otherwise: 0) { owner in
                owner.beginFrame(type: header.pointee.type, streamID: header.pointee.stream_id)
                    ? 0 : NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
            }
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, userData in
            guard let frame else { return 0 }
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                owner.beginHeaders(streamID: frame.pointee.hd.stream_id)
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, _, name, nameLength, value, valueLength, _, userData in
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                owner.header(name: UnsafeRawBufferPointer(start: name, count: nameLength),
                             value: UnsafeRawBufferPointer(start: value, count: valueLength))
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, userData in
            guard let frame else { return 0 }
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                HTTP2Callbacks.dispatch(frame.pointee, to: owner)
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, userData in
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                owner.dataReceived(streamID: streamID, UnsafeRawBufferPointer(start: data, count: length))
            }
            return 0
        }
        nghttp2_session_callbacks_set_send_data_callback(callbacks) { _, frame, header, length, _, userData in
            guard let frame, let header else { return NGHTTP2_ERR_CALLBACK_FAILURE.rawValue }
            return HTTP2Callbacks.with(userData, otherwise: NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) { owner in
                owner.writeData(streamID: frame.pointee.hd.stream_id, header: UnsafeRawBufferPointer(start: header, count: 9),
                                length: length, padding: frame.pointee.data.padlen)
            }
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, userData in
            guard let frame else { return 0 }
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                HTTP2Callbacks.sent(frame.pointee, by: owner)
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks) { _, frame, _, userData in
            guard let frame else { return 0 }
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                if UInt32(frame.pointee.hd.type) == NGHTTP2_RST_STREAM.rawValue {
                    owner.resetNotSent(streamID: frame.pointee.hd.stream_id)
                }
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, errorCode, userData in
            HTTP2Callbacks.with(userData, otherwise: ()) { owner in
                owner.streamClosed(streamID: streamID, errorCode: HTTP2ErrorCode(rawValue: errorCode))
            }
            return 0
        }
    }

    /// A frame has been written: RST_STREAM and GOAWAY are reported, whoever queued them.
    private static func sent(_ frame: nghttp2_frame, by owner: HTTP2Session) {
        switch UInt32(frame.hd.type) {
        case NGHTTP2_RST_STREAM.rawValue:
            owner.resetSent(streamID: frame.hd.stream_id, errorCode: HTTP2ErrorCode(rawValue: frame.rst_stream.error_code))
        case NGHTTP2_GOAWAY.rawValue:
            owner.events.append(.goAwaySent(lastStreamID: frame.goaway.last_stream_id,
                                            errorCode: HTTP2ErrorCode(rawValue: frame.goaway.error_code)))
        default:
            break
        }
    }

    /// Hands a whole received frame to the session as Swift values.
    private static func dispatch(_ frame: nghttp2_frame, to owner: HTTP2Session) {
        let streamID = frame.hd.stream_id
        let endsStream = frame.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(frame.hd.type) {
        case NGHTTP2_HEADERS.rawValue:
            let category = frame.headers.cat
            guard category != NGHTTP2_HCAT_PUSH_RESPONSE else { return }
            owner.headersReceived(streamID: streamID, isRequest: category == NGHTTP2_HCAT_REQUEST, endsStream: endsStream)
        case NGHTTP2_DATA.rawValue:
            if endsStream { owner.events.append(.endStream(streamID: streamID)) }
        case NGHTTP2_RST_STREAM.rawValue:
            owner.resetReceived()
            owner.events.append(.resetReceived(streamID: streamID, HTTP2ErrorCode(rawValue: frame.rst_stream.error_code)))
        case NGHTTP2_GOAWAY.rawValue:
            let goaway = frame.goaway
            let debug = goaway.opaque_data.map { Array(UnsafeBufferPointer(start: $0, count: goaway.opaque_data_len)) } ?? []
            owner.events.append(.goAwayReceived(lastStreamID: goaway.last_stream_id,
                                                errorCode: HTTP2ErrorCode(rawValue: goaway.error_code), debugData: debug))
        case NGHTTP2_SETTINGS.rawValue where frame.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
            owner.events.append(.settings(maxConcurrentStreams: owner.peerMaxConcurrentStreams))
        default:
            break
        }
    }
}
