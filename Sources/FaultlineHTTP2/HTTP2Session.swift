import FaultlineHTTP
private import CNghttp2

/// One HTTP/2 connection's protocol state, driven in memory: bytes from the peer go in through
/// `receive`, frames for the peer come out of `send(into:)`, and what happened is collected as
/// `HTTP2Event`s. No sockets and no clock; the owner (a connection on an event loop, a test, a
/// fuzz target) moves the bytes. Serves both ends: a server session decodes requests and
/// submits responses, a client session submits requests and decodes responses.
///
/// nghttp2 checks the framing, HPACK and RFC 9113 §8 messaging rules and the flood limits in
/// `HTTP2Settings`; Faultline adds the header-list limit and the translation checks
/// (`HTTP2HeaderBlock.requestHead()`).
public final class HTTP2Session {
    /// Which end of the connection this session is.
    public enum Role: Sendable, Equatable {
        /// Accepts streams (the proxy's listener side).
        case server
        /// Opens streams (the proxy's upstream side).
        case client
    }

    /// Which end this session is.
    public let role: Role
    /// The settings announced and enforced (clamped to the protocol's ranges).
    public let settings: HTTP2Settings
    /// The nghttp2 session (`nghttp2_session *`).
    var session: OpaquePointer?
    /// Per-stream state for open streams.
    var streams = HTTP2StreamTable<HTTP2StreamState>()
    /// Events not taken yet.
    var events: [HTTP2Event] = []
    /// The array events are collected in after the next `takeEvents`.
    private var spareEvents: [HTTP2Event] = []
    /// Bytes the connection window owes the peer; consumed after each `receive`.
    var connectionBytesToConsume = 0
    /// RST_STREAM frames the owner queued and nghttp2 has not written yet, by stream, with
    /// whether each answers a protocol error of the peer's (a reset not in here is nghttp2's own).
    var ownResets = HTTP2StreamTable<Bool>()
    /// The stream resets the peer may still cause (server role; see `HTTP2ResetBudget`).
    var resetBudget: HTTP2ResetBudget
    /// The stream ids a client skipped (server role), for RFC 9113 §5.1.1.
    var skippedStreams = HTTP2SkippedStreamIDs()
    /// Why a callback stopped nghttp2, for the `.connectionError` that `receive` reports.
    var callbackFailure: HTTP2Failure?
    /// The header block being received, whichever stream it is on.
    var collector = HTTP2HeaderBlockCollector()
    /// Closed streams' states, emptied, for the next streams to take (`makeStreamState`):
    /// a stream then costs no allocation for its state or its body queue.
    var spareStreamStates: [HTTP2StreamState] = []
    /// How many closed streams' states are kept. A connection with more streams open at once
    /// allocates for the others, as before; keeping more would hold memory on idle connections.
    static let keptStreamStates = 8
    /// The output `send(into:)` is appending to and the size it stops at, for the DATA frames
    /// nghttp2 leaves to the session to write (`writeData`); set only during that call.
    var sendTarget: (output: UnsafeMutablePointer<[UInt8]>, limit: Int)?

    /// A session for `role`; a server queues its SETTINGS at once, a client too (after the
    /// preface nghttp2 writes itself). Throws only when nghttp2 cannot allocate.
    public init(role: Role, settings: HTTP2Settings = HTTP2Settings()) throws(HTTP2Failure) {
        self.role = role
        self.settings = settings.clamped
        resetBudget = HTTP2ResetBudget(burst: self.settings.streamResetBurst, perSecond: self.settings.streamResetRate,
                                       now: .now)
        try open()
    }

    deinit {
        nghttp2_session_del(session)
    }

    /// Feeds bytes from the peer. Malformed input never throws: a stream error resets that stream
    /// and a connection error queues `.connectionError` (and a GOAWAY for `send(into:)`).
    public func receive(_ bytes: UnsafeRawBufferPointer) {
        guard let session, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return }
        let result = nghttp2_session_mem_recv(session, base, bytes.count)
        if result < 0 {
            let code = Int32(truncatingIfNeeded: result)
            events.append(.connectionError(callbackFailure ?? Self.failure(code)))
            callbackFailure = nil
            // nghttp2 stops reading but leaves the GOAWAY to us: floods get ENHANCE_YOUR_CALM.
            let floods = [NGHTTP2_ERR_FLOODED, NGHTTP2_ERR_TOO_MANY_CONTINUATIONS, NGHTTP2_ERR_TOO_MANY_SETTINGS].map(\.rawValue)
            let reason: HTTP2ErrorCode = floods.contains(code) ? .enhanceYourCalm : .protocolError
            nghttp2_session_terminate_session(session, reason.rawValue)
        }
        if connectionBytesToConsume > 0 {
            nghttp2_session_consume_connection(session, connectionBytesToConsume)
            connectionBytesToConsume = 0
        }
    }

    /// Feeds bytes from the peer and returns every event not taken yet.
    public func receive(_ bytes: [UInt8]) -> [HTTP2Event] {
        bytes.withUnsafeBytes { receive($0) }
        return takeEvents()
    }

    /// Appends the frames nghttp2 has ready to `output` (DATA as far as the peer's windows
    /// allow), stopping once `output` holds `limit` bytes or more; the rest waits for the next call.
    ///
    /// nghttp2 serializes every frame but DATA into its own buffer, returned here to be copied.
    /// A DATA frame's payload it leaves to `writeData`, which appends it to `output` straight
    /// from the stream's queue during the same `mem_send` call, ahead of the frame returned.
    public func send(into output: inout [UInt8], limit: Int = .max) {
        guard let session else { return }
        withUnsafeMutablePointer(to: &output) { target in
            sendTarget = (target, limit)
            defer { sendTarget = nil }
            while target.pointee.count < limit {
                var chunk: UnsafePointer<UInt8>?
                let count = nghttp2_session_mem_send(session, &chunk)
                if count < 0 {
                    events.append(.connectionError(Self.failure(Int32(truncatingIfNeeded: count))))
                    return
                }
                guard count > 0, let chunk else { return }
                target.pointee.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
            }
        }
    }

    /// The events collected since the last call, oldest first. Give the array back with
    /// `recycle(_:)` once handled: two arrays then take turns, where emptying one still
    /// shared with its taker allocated a new one each pass.
    public func takeEvents() -> [HTTP2Event] {
        var taken: [HTTP2Event] = []
        swap(&taken, &spareEvents)
        swap(&taken, &events)
        return taken
    }

    /// Takes back an array `takeEvents` returned, once its events are handled, to collect
    /// the next ones in.
    public func recycle(_ handled: inout [HTTP2Event]) {
        handled.removeAll(keepingCapacity: true)
        if spareEvents.capacity < handled.capacity { swap(&spareEvents, &handled) }
    }

    /// Takes the events collected so far, hands them to `handle` and keeps their array (which
    /// `handle` may move the events out of: it is emptied next).
    public func handleEvents(_ handle: (inout [HTTP2Event]) -> Void) {
        var taken = takeEvents()
        handle(&taken)
        recycle(&taken)
    }

    /// Reopens `count` bytes of a stream's receive window: its consumer has taken them.
    public func consume(streamID: Int32, count: Int) {
        guard let session, count > 0 else { return }
        nghttp2_session_consume_stream(session, streamID, count)
    }

    /// Whether nghttp2 still expects frames from the peer.
    public var wantsRead: Bool { session.map { nghttp2_session_want_read($0) != 0 } ?? false }
    /// Whether nghttp2 has frames to write (or may have once a deferred stream resumes).
    public var wantsWrite: Bool { session.map { nghttp2_session_want_write($0) != 0 } ?? false }
    /// Whether the session has nothing left to read or write: the connection may close.
    public var isFinished: Bool { !wantsRead && !wantsWrite }

    /// The highest peer stream id processed so far (what a graceful GOAWAY announces).
    public var lastProcessedStreamID: Int32 { session.map { nghttp2_session_get_last_proc_stream_id($0) } ?? 0 }

    /// How many streams the peer lets us open (SETTINGS_MAX_CONCURRENT_STREAMS).
    public var peerMaxConcurrentStreams: UInt32 {
        session.map { nghttp2_session_get_remote_settings($0, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS) } ?? 0
    }

    /// How many streams are open on this session (either side's).
    public var openStreamCount: Int { streams.count }

    /// Body bytes queued on a stream and not yet framed (backpressure).
    public func queuedOutboundBytes(streamID: Int32) -> Int {
        streams[streamID]?.queuedCount ?? 0
    }

    /// A failure value from nghttp2's error number.
    static func failure(_ code: Int32) -> HTTP2Failure {
        HTTP2Failure(code: code, message: String(cString: nghttp2_strerror(code)))
    }

    /// Creates the nghttp2 session with the callbacks and options, and queues SETTINGS.
    private func open() throws(HTTP2Failure) {
        var options: OpaquePointer?
        var callbacks: OpaquePointer?
        guard nghttp2_option_new(&options) == 0, nghttp2_session_callbacks_new(&callbacks) == 0 else {
            nghttp2_option_del(options)
            throw Self.failure(NGHTTP2_ERR_NOMEM.rawValue)
        }
        defer {
            nghttp2_option_del(options)
            nghttp2_session_callbacks_del(callbacks)
        }
        nghttp2_option_set_no_auto_window_update(options, 1)
        nghttp2_option_set_max_continuations(options, settings.maxContinuations)
        nghttp2_option_set_max_settings(options, settings.maxSettingsEntries)
        nghttp2_option_set_max_outbound_ack(options, settings.maxOutboundAcks)
        nghttp2_option_set_stream_reset_rate_limit(options, settings.streamResetBurst, settings.streamResetRate)
        HTTP2Callbacks.install(on: callbacks)
        let context = Unmanaged.passUnretained(self).toOpaque()
        var created: OpaquePointer?
        let status = switch role {
        case .server: nghttp2_session_server_new2(&created, callbacks, context, options)
        case .client: nghttp2_session_client_new2(&created, callbacks, context, options)
        }
        guard status == 0, let created else { throw Self.failure(status) }
        session = created
        var entries = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: settings.maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: settings.initialStreamWindow),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: settings.maxFrameSize),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: settings.maxHeaderListSize),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
        ]
        let queued = nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
        guard queued == 0 else { throw Self.failure(queued) }
        let window = nghttp2_session_set_local_window_size(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(settings.connectionWindow))
        guard window == 0 else { throw Self.failure(window) }
    }
}
