import FaultlineHTTP
import FaultlineIO

extension DemoOriginConnection {
    private static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Acts on one decoder event; body ranges index `buffer`.
    func handle(_ event: HTTP1DecoderEvent, in buffer: UnsafeRawBufferPointer) {
        switch event {
        case .head:
            begin(decoder.head)
        case .body(let range):
            receiveBody(UnsafeRawBufferPointer(rebasing: buffer[range]))
        case .trailers:
            break
        case .end:
            requestDidEnd()
        }
    }

    private func begin(_ head: HTTPHead) {
        let request = DemoOriginRequest(head: head, peer: socket.peer)
        var exchange = DemoOriginExchange(request: request, route: DemoOriginRouter.route(request))
        // The client waits for this before sending the body (RFC 9110 section 10.1.1).
        if request.hasBody && !request.isHTTP10,
           head.headers.first("expect")?.lowercased() == "100-continue" {
            socket.write(DemoOriginConnection.continueLine)
        }
        switch exchange.route {
        case .echo:
            exchange.digest = DemoOriginDigest()
            self.exchange = exchange
        case .echoRaw:
            self.exchange = exchange
            startEchoRaw()
        default:
            self.exchange = exchange
        }
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        guard let exchange else { return }
        self.exchange?.bodyBytes += UInt64(bytes.count)
        switch exchange.route {
        case .echo:
            exchange.digest?.update(bytes)
        case .echoRaw where !exchange.request.isHead:
            if exchange.chunked { writeChunk(bytes) } else { socket.write(bytes) }
            if socket.pendingWriteBytes > DemoOriginConnection.highWater { updateReading() }
        default:
            break
        }
    }

    private func requestDidEnd() {
        guard let exchange else { return }
        self.exchange?.requestEnded = true
        if case .echoRaw = exchange.route {
            if exchange.chunked && !exchange.request.isHead { socket.write(HTTP1Encoder.lastChunk) }
            finishResponse()
        } else {
            startResponse(exchange)
        }
    }

    private func startResponse(_ exchange: DemoOriginExchange) {
        let request = exchange.request
        switch exchange.route {
        case let .fixed(status, reason, contentType, body, extra):
            respond(status: status, reason: reason, contentType: contentType, body: body, extra: extra)
        case .sixtyFour:
            if !request.isHead && !request.isHTTP10 && !exchange.closeAfter {
                socket.write(DemoOriginDocuments.sixtyFourResponse)
                finishResponse()
            } else {
                respond(status: 200, contentType: "text/plain", body: DemoOriginDocuments.sixtyFour)
            }
        case .delay(let milliseconds):
            timer = socket.loop.schedule(afterMilliseconds: milliseconds) { [weak self] in
                self?.timer = nil
                self?.respond(status: 200, contentType: "application/json",
                              body: DemoOriginJSON.body("{\"delayed_ms\": \(milliseconds)}"))
            }
        case let .bytes(count, framing):
            startPattern(count: count, framing: framing)
        case .stream(let count):
            startLines(count: count)
        case let .events(count, first, interval):
            startEvents(count: count, first: first, intervalMilliseconds: interval)
        case .token:
            let document = "{\"token\": \(DemoOriginJSON.quoted(tokens.next()))}"
            respond(status: 200, contentType: "application/json", body: DemoOriginJSON.body(document),
                    extra: [("Cache-Control", "no-store")])
        case .echo:
            respondEcho(exchange)
        case .echoRaw:
            break
        case .webSocket(let accept):
            acceptWebSocket(accept)
        }
    }

    /// Writes a complete response and ends the exchange.
    func respond(status: Int, reason: String = "", contentType: String?, body: [UInt8],
                 extra: [(name: String, value: String)] = []) {
        guard let exchange else { return }
        let bodiless = status < 200 || status == 204 || status == 304
        var head: [UInt8] = []
        DemoOriginResponseHead.encode(status: status, reason: reason, contentType: contentType,
                                      framing: bodiless ? .none : .length(UInt64(body.count)),
                                      keepAlive: !exchange.closeAfter, http10: exchange.request.isHTTP10,
                                      extra: extra, into: &head)
        if bodiless || exchange.request.isHead || body.isEmpty {
            socket.write(head)
        } else {
            body.withUnsafeBytes { _ = socket.write(head, $0) }
        }
        finishResponse()
    }

    /// Writes the head of a response whose body follows over time; returns false for HEAD
    /// requests, whose exchange it has then ended.
    func startStreaming(status: Int = 200, contentType: String, framing: DemoOriginFraming,
                        extra: [(name: String, value: String)] = []) -> Bool {
        guard var exchange else { return false }
        if framing == .untilClose { exchange.closeAfter = true }
        exchange.chunked = framing == .chunked
        exchange.responseStarted = true
        self.exchange = exchange
        var head: [UInt8] = []
        DemoOriginResponseHead.encode(status: status, contentType: contentType, framing: framing,
                                      keepAlive: !exchange.closeAfter, http10: exchange.request.isHTTP10,
                                      extra: extra, into: &head)
        socket.write(head)
        if exchange.request.isHead {
            finishResponse()
            return false
        }
        return !isFinished
    }

    /// Writes `bytes` as one chunk (never the empty last chunk).
    func writeChunk(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        var frame: [UInt8] = []
        frame.reserveCapacity(bytes.count + 12)
        HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &frame)
        frame.append(contentsOf: bytes)
        frame.append(contentsOf: HTTP1Encoder.chunkEnd)
        socket.write(frame)
    }

    /// The response is fully handed to the socket: close, or go on with the next request.
    func finishResponse() {
        guard let exchange, !isFinished else { return }
        self.exchange = nil
        producer = .idle
        if exchange.closeAfter {
            shutDown()
        } else {
            resumeDecoding()
        }
    }

    /// Answers input the decoder refused, then closes.
    func reject(_ error: HTTP1DecodeError) {
        if exchange?.responseStarted ?? false {
            // A response is already on the wire; the client can only learn of the failure by a reset.
            shutDown(reset: true)
            return
        }
        var out: [UInt8] = []
        let body = Array("\(HTTPStatus.reason(error.status)): \(error.reason)\n".utf8)
        DemoOriginResponseHead.encode(status: error.status, contentType: "text/plain",
                                      framing: .length(UInt64(body.count)), keepAlive: false, http10: false, into: &out)
        socket.write(out + body)
        shutDown()
    }
}
