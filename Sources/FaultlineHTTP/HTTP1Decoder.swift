private import CLLHTTP

/// A strict HTTP/1.x decoder over llhttp that does no I/O: bytes in, events out.
///
/// It stops after each complete message (so a server answers pipelined requests one at a
/// time, in order) and at a protocol switch. It can be fed one byte at a time.
public final class HTTP1Decoder {
    /// Which side of the conversation the bytes come from.
    public enum Kind: Sendable {
        /// Bytes from a client.
        case request
        /// Bytes from a server.
        case response
    }

    /// Events found by the last `feed` or `finish` call.
    public private(set) var events: [HTTP1DecoderEvent] = []
    /// The head of the `.head` event among `events`, read in place (no copy) until the next
    /// `feed`, `finish` or `reset`; a copy keeps it for longer. An addressor over memory of
    /// the decoder's own: a `_read` accessor allocated a coroutine frame per read, and a
    /// getter copies the head (a retain and release per buffer).
    public var head: HTTPHead {
        unsafeAddress { UnsafePointer(completedHead) }
    }
    /// Runs `body` on `head` lent without a copy. `head` itself is copied by a caller that
    /// passes it on while it calls other code (that code could change it): a retain and
    /// release per buffer. Here it is moved out for the call and back after it, so `head`
    /// reads as an empty head meanwhile.
    public func withHead<Result>(_ body: (borrowing HTTPHead) -> Result) -> Result {
        let lent = exchange(&completedHead.pointee, with: HTTPHead())
        let result = body(lent)
        completedHead.pointee = consume lent
        return result
    }

    /// The fields of the `.trailers` event among `events`, valid as long as `head` is.
    public private(set) var trailers = HTTPHeaders()
    /// Set before feeding a response to a HEAD request: such a response has no body.
    public var responseHasNoBody = false

    let kind: Kind
    /// The limits messages are held to (a recycled decoder takes the current ones).
    public private(set) var limits: HTTP1DecoderLimits
    private let parser: UnsafeMutablePointer<llhttp_t>
    /// The head being decoded.
    private var partialHead = HTTPHead()
    /// Where `head` lives, allocated with the decoder (as `parser` is).
    private let completedHead: UnsafeMutablePointer<HTTPHead>
    private var inTrailers = false
    /// The field section being decoded: the head's, then the trailers'.
    private var fieldSection = HTTPFieldsBuilder()
    private var headerBytes = 0
    private var limitError: HTTP1DecodeError?
    private var feedBase: UnsafeRawPointer?
    private var failed: HTTP1DecodeError?
    private var paused = false
    /// Which part of a field line the next piece continues.
    private var fieldPart = FieldPart.between
    /// The reason phrase so far is the standard one for the status, kept as an empty
    /// `reason` (which writers expand to the standard text): no allocation per response for
    /// the common case.
    private var reasonIsStandard = false
    /// A head's buffers larger than this are let go rather than kept for the next message.
    private static let keptSpareBytes = 8192
    /// The last byte other than space or tab of the earlier feeds, to see what precedes a
    /// piece that starts a buffer (a fold may be fed one byte at a time).
    private var previousFeedLastNonBlank: UInt8 = 0

    /// Creates a decoder for one connection.
    public init(kind: Kind, limits: HTTP1DecoderLimits = HTTP1DecoderLimits()) {
        self.kind = kind
        self.limits = limits
        // A message's head, body and end: room for them once, not regrown per connection.
        events.reserveCapacity(4)
        completedHead = UnsafeMutablePointer<HTTPHead>.allocate(capacity: 1)
        completedHead.initialize(to: HTTPHead())
        parser = UnsafeMutablePointer<llhttp_t>.allocate(capacity: 1)
        llhttp_init(parser, kind == .request ? HTTP_REQUEST : HTTP_RESPONSE, HTTP1Decoder.settings)
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        parser.deallocate()
        completedHead.deinitialize(count: 1)
        completedHead.deallocate()
    }

    /// Puts the decoder back in the state `init` leaves it in, keeping only memory: the
    /// parser starts afresh and no byte, field, event or error of the connection it served
    /// is read again. For a pool that hands a closed connection's decoder to the next one,
    /// which then costs no allocation for its parser, field section, events and first head.
    public func reset(limits: HTTP1DecoderLimits) {
        clearEvents()
        self.limits = limits
        responseHasNoBody = false
        // The last head's storage stays for the next client's first head, emptied.
        completedHead.pointee.empty(keepingBuffersUpTo: Self.keptSpareBytes)
        completedHead.pointee.headers.removeAll(keepingCapacity: true)
        trailers = HTTPHeaders()
        partialHead = HTTPHead()
        inTrailers = false
        fieldSection.removeAll()
        headerBytes = 0
        limitError = nil
        feedBase = nil
        failed = nil
        paused = false
        fieldPart = .between
        reasonIsStandard = false
        previousFeedLastNonBlank = 0
        llhttp_init(parser, kind == .request ? HTTP_REQUEST : HTTP_RESPONSE, HTTP1Decoder.settings)
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Bytes of memory the decoder keeps from one message to the next (its field section's
    /// room and the last head's storage): what keeping it in a pool keeps alive.
    public var keptBytes: Int {
        fieldSection.keptBytes + completedHead.pointee.bufferBytes + partialHead.bufferBytes
    }

    /// Decodes `bytes`, filling `events`. After `.messageComplete` call `resume()` and feed
    /// the bytes from `consumed` on.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> HTTP1DecodeStatus {
        clearEvents()
        if let failed { return .failed(failed) }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .needMore }
        feedBase = base
        defer {
            feedBase = nil
            if let last = bytes.lastIndex(where: { !ASCII.isWhitespace($0) }) { previousFeedLastNonBlank = bytes[last] }
        }
        let code = llhttp_execute(parser, base.assumingMemoryBound(to: CChar.self), bytes.count)
        return status(for: code, base: base)
    }

    /// Tells the decoder the peer closed; completes a close-delimited body or reports a cut message.
    public func finish() -> HTTP1DecodeStatus {
        clearEvents()
        if let failed { return .failed(failed) }
        let code = llhttp_finish(parser)
        if code == HPE_OK || code == HPE_PAUSED {
            if code == HPE_PAUSED { llhttp_resume(parser) }
            return events.isEmpty ? .needMore : .messageComplete(consumed: 0)
        }
        let error = HTTP1DecodeError(kind: .incomplete, reason: "connection closed before the message was complete")
        failed = error
        return .failed(error)
    }

    /// Empties `events` one at a time: `removeAll(keepingCapacity:)` goes through the generic
    /// `replaceSubrange`, about a hundred instructions more for the two or three events here.
    /// The completed head stays until the next message begins: a caller may still be reading
    /// it (a `finish` while its exchange is handled).
    private func clearEvents() {
        while !events.isEmpty { events.removeLast() }
    }

    /// Continues after `.messageComplete`.
    public func resume() {
        if paused {
            llhttp_resume(parser)
            paused = false
        }
    }

    /// Continues as HTTP after an upgrade the other side refused.
    public func resumeAfterRefusedUpgrade() {
        llhttp_resume_after_upgrade(parser)
    }

    /// Whether a message is partly decoded (a head or body is in progress).
    public var isMidMessage: Bool {
        llhttp_message_needs_eof(parser) != 0 || parser.pointee.finish != UInt8(HTTP_FINISH_SAFE.rawValue)
    }

    private func status(for code: llhttp_errno_t, base: UnsafeRawPointer) -> HTTP1DecodeStatus {
        switch code {
        case HPE_OK:
            return .needMore
        case HPE_PAUSED:
            paused = true
            return .messageComplete(consumed: offset(of: llhttp_get_error_pos(parser), from: base))
        case HPE_PAUSED_UPGRADE:
            return .upgraded(consumed: offset(of: llhttp_get_error_pos(parser), from: base))
        default:
            let error = limitError ?? HTTP1DecodeError(kind: .malformed, reason: llhttpReason())
            failed = error
            return .failed(error)
        }
    }

    private func offset(of position: UnsafePointer<CChar>?, from base: UnsafeRawPointer) -> Int {
        guard let position else { return 0 }
        return UnsafeRawPointer(position) - base
    }

    private func llhttpReason() -> String {
        let name = String(cString: llhttp_errno_name(llhttp_get_errno(parser)))
        guard let reason = llhttp_get_error_reason(parser) else { return name }
        return "\(String(cString: reason)) (\(name))"
    }
}

// MARK: - llhttp callbacks

extension HTTP1Decoder {
    /// Runs `body` on the decoder behind `parser` without retaining it: the decoder is
    /// alive for the whole `llhttp_execute` call that invokes the callback, and a retain and
    /// release per callback (a dozen per message) showed up in profiles.
    @inline(__always)
    fileprivate static func with(_ parser: UnsafeMutablePointer<llhttp_t>?, _ body: (HTTP1Decoder) -> Int32) -> Int32 {
        guard let data = parser?.pointee.data else { return -1 }
        return Unmanaged<HTTP1Decoder>.fromOpaque(data)._withUnsafeGuaranteedRef(body)
    }

    fileprivate static func buffer(_ at: UnsafePointer<CChar>?, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: at, count: length)
    }

    fileprivate func fail(_ kind: HTTP1DecodeError.Kind, _ reason: String) -> Int32 {
        limitError = HTTP1DecodeError(kind: kind, reason: reason)
        return -1
    }

    fileprivate func onMessageBegin() -> Int32 {
        // The last message's head was read before this feed: it becomes this one, emptied,
        // keeping its buffers' memory when nothing else holds them any more (the exchange is
        // over), so a keep-alive message costs no allocation for them. Swapped, not assigned:
        // an assignment destroys a head, a release per buffer. Its fields are replaced, not
        // emptied, here: `fieldSection.copy(into:)` does that when the section is complete.
        swap(&partialHead, &completedHead.pointee)
        partialHead.empty(keepingBuffersUpTo: Self.keptSpareBytes)
        if trailers.count > 0 { trailers.removeAll(keepingCapacity: true) }
        fieldSection.removeAll()
        inTrailers = false
        fieldPart = .between
        reasonIsStandard = false
        headerBytes = 0
        return 0
    }

    fileprivate func onTarget(_ piece: UnsafeRawBufferPointer) -> Int32 {
        partialHead.target.append(contentsOf: piece)
        if partialHead.target.count > limits.maxTargetBytes {
            return fail(.requestLineTooLong, "request target longer than \(limits.maxTargetBytes) bytes")
        }
        return 0
    }

    fileprivate func onReason(_ piece: UnsafeRawBufferPointer) -> Int32 {
        // reason-phrase = *( HTAB / SP / VCHAR / obs-text ): a control byte would reach the client.
        for byte in piece where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            return fail(.malformed, "reason phrase contains a control character")
        }
        var standard = HTTPStatus.reason(Int(parser.pointee.status_code))
        // Compared as two buffers: the generic comparison with a String's UTF8View costs more
        // than a hundred instructions even for "OK".
        if partialHead.reason.isEmpty && !reasonIsStandard && !piece.isEmpty
            && standard.withUTF8({ UnsafeRawBufferPointer($0).elementsEqual(piece) }) {
            reasonIsStandard = true
            return 0
        }
        if reasonIsStandard {
            // The phrase goes on past the standard text (it arrived in pieces): keep it all.
            partialHead.reason.append(contentsOf: standard.utf8)
            reasonIsStandard = false
        }
        partialHead.reason.append(contentsOf: piece)
        return partialHead.reason.count > limits.maxTargetBytes
            ? fail(.malformed, "reason phrase longer than \(limits.maxTargetBytes) bytes") : 0
    }

    @inline(__always)
    fileprivate func onHeaderField(_ piece: UnsafeRawBufferPointer) -> Int32 {
        headerBytes += piece.count
        if headerBytes > limits.maxHeaderBytes {
            return fail(.headersTooLarge, "header section larger than \(limits.maxHeaderBytes) bytes")
        }
        switch fieldPart {
        case .name:
            break
        case .value, .between:
            // A name after a value: the field before it is complete.
            if fieldPart == .value { fieldSection.endField() }
            // Trailers count against the same limit: a trailer section is a header section.
            if fieldSection.count >= limits.maxHeaderCount {
                return fail(.tooManyHeaders, "more than \(limits.maxHeaderCount) header fields")
            }
            fieldSection.beginField()
            fieldPart = .name
        }
        fieldSection.appendName(piece)
        return 0
    }

    @inline(__always)
    fileprivate func onHeaderValue(_ piece: UnsafeRawBufferPointer) -> Int32 {
        headerBytes += piece.count
        if headerBytes > limits.maxHeaderBytes {
            return fail(.headersTooLarge, "header section larger than \(limits.maxHeaderBytes) bytes")
        }
        switch fieldPart {
        case .value:
            break
        case .name:
            // The first value piece (empty for an empty value) ends the name.
            if fieldSection.lastNameIsEmpty { return fail(.malformed, HTTPHeadViolation.emptyFieldName.description) }
            fieldSection.beginValue()
            fieldPart = .value
        case .between:
            // llhttp accepts a line that starts with its colon (`: x`) and reports its value
            // with no name piece before it.
            return fail(.malformed, HTTPHeadViolation.emptyFieldName.description)
        }
        // No scan for control bytes here: llhttp's strict value grammar (no lenient flag is
        // ever set) admits only HTAB, SP, VCHAR and obs-text, in every field it reads
        // (HTTP1DecoderTests.controlBytesInValuesAreRefused holds it to that).
        // llhttp accepts obs-fold and hands the continuation line over as a new piece that
        // follows a line feed and the fold's whitespace (also when the first line is empty,
        // `X:\r\n folded`); a value split across reads follows a value or a colon, never that.
        // (An empty value arrives as an empty piece at the start of the next line: no fold.)
        if !piece.isEmpty && byteBeforeWhitespace(piece) == 10 {
            return fail(.malformed, HTTPHeadViolation.obsoleteLineFolding.description)
        }
        fieldSection.appendValue(piece)
        return 0
    }

    /// The last byte before `piece` that is not a space or tab, looking back into earlier feeds.
    private func byteBeforeWhitespace(_ piece: UnsafeRawBufferPointer) -> UInt8 {
        guard let start = piece.baseAddress, let base = feedBase, start > base else { return previousFeedLastNonBlank }
        var cursor = start - 1
        while true {
            let byte = cursor.load(as: UInt8.self)
            if !ASCII.isWhitespace(byte) { return byte }
            if cursor == base { return previousFeedLastNonBlank }
            cursor -= 1
        }
    }

    /// Completes the field being decoded, if any: the end of a section ends its last field.
    private func endSection() {
        if fieldPart == .value { fieldSection.endField() }
        fieldPart = .between
    }

    fileprivate func onHeadersComplete() -> Int32 {
        endSection()
        fieldSection.copy(into: &partialHead.headers)
        fieldSection.removeAll()
        return complete(exchange(&partialHead, with: HTTPHead()))
    }

    /// Completes and checks a head moved out of the decoder, and moves it to `completedHead`:
    /// a method called on the decoder's own `partialHead` would work on a copy, and a copy
    /// retains and releases each of the head's buffers.
    private func complete(_ head: consuming HTTPHead) -> Int32 {
        let p = parser.pointee
        head.versionMajor = Int(p.http_major)
        head.versionMinor = Int(p.http_minor)
        if kind == .request {
            head.method = Self.methodName(p.method)
        } else {
            head.status = Int(p.status_code)
        }
        head.keepAlive = llhttp_should_keep_alive(parser) != 0
        head.isChunked = (Int32(p.flags) & Int32(F_CHUNKED.rawValue)) != 0
        head.contentLength = (Int32(p.flags) & Int32(F_CONTENT_LENGTH.rawValue)) != 0 ? p.content_length : nil
        head.isUpgrade = p.upgrade != 0
        do {
            if kind == .request {
                if head.offersH2CUpgrade {
                    head.stripH2CUpgradeOffer()
                    // llhttp decided on an upgrade before this callback and acts on the flag after it.
                    if !head.isUpgrade { parser.pointee.upgrade = 0 }
                }
                try head.validateRequest()
            } else {
                try head.validateResponse()
            }
        } catch {
            return fail(.malformed, error.description)
        }
        inTrailers = true
        let bodiless = kind == .response && (responseHasNoBody || head.isInterim)
        completedHead.pointee = consume head
        events.append(.head)
        return bodiless ? 1 : 0
    }

    /// The common methods are literals (no string is made per request); the rest take
    /// llhttp's name.
    private static func methodName(_ method: UInt8) -> String {
        switch UInt32(method) {
        case HTTP_GET.rawValue: "GET"
        case HTTP_POST.rawValue: "POST"
        case HTTP_HEAD.rawValue: "HEAD"
        case HTTP_PUT.rawValue: "PUT"
        case HTTP_DELETE.rawValue: "DELETE"
        case HTTP_OPTIONS.rawValue: "OPTIONS"
        case HTTP_PATCH.rawValue: "PATCH"
        case HTTP_CONNECT.rawValue: "CONNECT"
        default: String(cString: llhttp_method_name(llhttp_method_t(UInt32(method))))
        }
    }

    fileprivate func onBody(_ piece: UnsafeRawBufferPointer) -> Int32 {
        guard let base = feedBase, let start = piece.baseAddress else { return 0 }
        let offset = start - base
        events.append(.body(offset..<(offset + piece.count)))
        return 0
    }

    fileprivate func onMessageComplete() -> Int32 {
        endSection()
        if inTrailers && fieldSection.count > 0 {
            fieldSection.copy(into: &trailers)
            events.append(.trailers)
        }
        events.append(.end)
        // An upgrade must surface as HPE_PAUSED_UPGRADE, so do not pause on top of it.
        return parser.pointee.upgrade != 0 ? 0 : Int32(HPE_PAUSED.rawValue)
    }
}

extension HTTP1Decoder {
    /// llhttp needs callbacks with a lifetime at least the parser's: one table for the process.
    /// There are none for the end of a field name or value: the next piece tells (`fieldPart`),
    /// two calls from C into Swift per field fewer.
    nonisolated(unsafe) fileprivate static let settings: UnsafeMutablePointer<llhttp_settings_t> = {
        let settings = UnsafeMutablePointer<llhttp_settings_t>.allocate(capacity: 1)
        llhttp_settings_init(settings)
        settings.pointee.on_message_begin = { parser in
            HTTP1Decoder.with(parser) { $0.onMessageBegin() }
        }
        settings.pointee.on_url = { parser, at, length in
            HTTP1Decoder.with(parser) { $0.onTarget(HTTP1Decoder.buffer(at, length)) }
        }
        settings.pointee.on_status = { parser, at, length in
            HTTP1Decoder.with(parser) { $0.onReason(HTTP1Decoder.buffer(at, length)) }
        }
        settings.pointee.on_header_field = { parser, at, length in
            HTTP1Decoder.with(parser) { $0.onHeaderField(HTTP1Decoder.buffer(at, length)) }
        }
        settings.pointee.on_header_value = { parser, at, length in
            HTTP1Decoder.with(parser) { $0.onHeaderValue(HTTP1Decoder.buffer(at, length)) }
        }
        settings.pointee.on_headers_complete = { parser in
            HTTP1Decoder.with(parser) { $0.onHeadersComplete() }
        }
        settings.pointee.on_body = { parser, at, length in
            HTTP1Decoder.with(parser) { $0.onBody(HTTP1Decoder.buffer(at, length)) }
        }
        settings.pointee.on_message_complete = { parser in
            HTTP1Decoder.with(parser) { $0.onMessageComplete() }
        }
        return settings
    }()
}

extension HTTP1Decoder {
    /// Where a field line stands between llhttp's name and value pieces.
    enum FieldPart {
        /// No field is open (before the first, or after the section's end).
        case between
        /// Name pieces are arriving.
        case name
        /// Value pieces are arriving; a name piece or the section's end completes the field.
        case value
    }
}

extension HTTPHead {
    /// Memory of the head's buffers (fields and target).
    fileprivate var bufferBytes: Int {
        headers.bytes.capacity + headers.fields.capacity * MemoryLayout<HTTPHeaders.Field>.stride + target.capacity
            + reason.capacity
    }

    /// Empties the start line and flags for the next message, keeping the memory of buffers of
    /// at most `limit` bytes (emptying a buffer something else still holds allocates, as a new
    /// one would). The fields are left to be replaced.
    fileprivate mutating func empty(keepingBuffersUpTo limit: Int) {
        method = ""
        status = 0
        versionMajor = 1
        versionMinor = 1
        keepAlive = true
        isChunked = false
        contentLength = nil
        isUpgrade = false
        if target.capacity > limit { target = [] } else if !target.isEmpty { target.removeAll(keepingCapacity: true) }
        if reason.capacity > limit { reason = [] } else if !reason.isEmpty { reason.removeAll(keepingCapacity: true) }
        if headers.bytes.capacity > limit { headers = HTTPHeaders() }
    }
}
