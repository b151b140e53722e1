import FaultlineHTTP
import FaultlineIO

/// The client side of an exchange, written as HTTP/1 bytes.
extension DownstreamConnection: ExchangeClient {
    func writeInterimHead(_ head: HTTPHead, exchange: Exchange) {
        socket.write(ResponseHeadWriter.clientHead(for: head, framing: .none, keepAlive: true,
                                                   clientMinorVersion: exchange.machine.setup.clientMinorVersion, upgrade: false))
    }

    func writeResponseHead(_ head: HTTPHead, shape: ResponseHeadShape, exchange: Exchange) {
        traceResponse(head)
        let minor = exchange.machine.setup.clientMinorVersion
        // The connection's head buffer, taken (a swap: it stays uniquely referenced) and given
        // back with its capacity; one that grew for an unusually large head is let go.
        var bytes: [UInt8] = []
        swap(&bytes, &headBuffer)
        defer {
            bytes.removeAll(keepingCapacity: bytes.capacity <= Self.keptHeadBufferBytes)
            swap(&bytes, &headBuffer)
        }
        ResponseHeadWriter.appendClientHead(for: head, framing: shape.framing, keepAlive: shape.keepAlive,
                                            clientMinorVersion: minor, upgrade: shape.upgrade, into: &bytes,
                                            scratch: context.headScratch)
        if shape.upgrade {
            socket.write(bytes)
            return
        }
        if shape.marked, let marker = exchange.machine.setup.faultMarker {
            bytes.removeLast(2)
            HTTP1Encoder.appendField("X-Faultline-Fault", marker.utf8, into: &bytes)
            bytes.append(contentsOf: [13, 10])
        }
        emitToClient(bytes, exchange: exchange)
    }

    func forwardResponseBody(_ bytes: UnsafeRawBufferPointer, part: ResponseBodyPart, exchange: Exchange) {
        let body = UnsafeRawBufferPointer(rebasing: bytes[..<min(part.count, bytes.count)])
        if part.corruptFirstByte {
            // A body that no JSON parser accepts, with its declared length intact.
            var corrupted = Array(body)
            corrupted[0] = UInt8(ascii: "<")
            corrupted.withUnsafeBytes { writeResponseBody($0, chunked: part.chunked, pacer: exchange.pacer) }
        } else {
            writeResponseBody(body, chunked: part.chunked, pacer: exchange.pacer)
        }
    }

    func endResponseBody(chunked: Bool, exchange: Exchange) {
        guard chunked else { return }
        var tail: [UInt8] = []
        HTTP1Encoder.appendLastChunk(trailers: exchange.responseTrailers, into: &tail)
        emitToClient(tail, exchange: exchange)
    }

    func writeOwnResponse(_ response: OwnResponse, exchange: Exchange?) {
        guard !phase.isClosed else { return }
        noteOwnResponse(response)
        let keepAlive = response.keepAlive && !context.draining
        socket.write(OwnResponseHTTP1.bytes(of: response, close: !keepAlive))
    }

    func startTunnel(exchange: Exchange) {
        phase = .tunnel(exchange)
        socket.setReading(true)
        if !pipelined.isEmpty, let upstream = exchange.upstream?.connection {
            upstream.socket.write(pipelined)
            pipelined.removeAll()
        }
    }

    /// The machine already dropped keep-alive: the response says `Connection: close` and
    /// the connection closes after it, which is all a graceful goaway means on HTTP/1.
    func sendGracefulGoAway(exchange: Exchange) {}

    /// Ends the connection as the exchange asks; HTTP/1 has no error codes, so a refused
    /// stream is a reset and an immediate goaway a close.
    func closeClient(_ how: ClientClose) {
        switch how {
        case .graceful: closeAfterFlush()
        case .now, .goAway: closeNow()
        case .reset, .refuseStream: closeNow(reset: true)
        }
    }

    private func writeResponseBody(_ bytes: UnsafeRawBufferPointer, chunked: Bool, pacer: ResponsePacer?) {
        traceResponseBody(bytes)
        if chunked {
            // Each piece read goes out as a complete chunk: a client that decodes whole
            // chunks must not wait for the next read to learn that this one ended.
            var prefix: [UInt8] = []
            HTTP1Encoder.appendChunkHeader(size: bytes.count, into: &prefix)
            if let pacer {
                prefix.withUnsafeBytes { pacer.emit($0) }
                pacer.emit(bytes)
                HTTP1Encoder.chunkEnd.withUnsafeBytes { pacer.emit($0) }
            } else {
                socket.write(prefix, bytes)
                socket.write(HTTP1Encoder.chunkEnd)
            }
        } else if let pacer {
            pacer.emit(bytes)
        } else {
            socket.write(bytes)
        }
    }
}
