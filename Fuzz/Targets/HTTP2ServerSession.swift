import FaultlineHTTP
import FaultlineHTTP2

/// A server session fed hostile frames, as the proxy's HTTP/2 listener is. The input is split
/// into pieces (a peer chooses how its bytes arrive) and the session answers every request it
/// hands out, so the data provider, trailers and resets run too. Invariants: nothing crashes
/// or leaks; every request head the translation accepts is one an HTTP/1.1 upstream may
/// receive (HTTP/1.1, lowercase names without CR, LF or NUL, no connection-specific field, TE
/// at most `trailers`, one Host equal to `:authority`, an absolute or `*` target); every
/// output is a sequence of whole frames.
///
/// Input: an options byte, a split size, then the bytes after the client preface (option bit
/// 0 set: the input carries its own preface; the other bits choose how the session answers).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2ServerSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let split = max(1, Int(input.byte()))
    let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    let bytes = (options & 1 == 0 ? preface : []) + input.rest()
    let settings = HTTP2Settings(maxConcurrentStreams: 8, initialStreamWindow: 1024, maxHeaderListSize: 2048,
                                 streamResetBurst: 20, streamResetRate: 1, maxContinuations: 4)
    guard let session = try? HTTP2Session(role: .server, settings: settings) else {
        FuzzCheck.fail("session could not be created")
    }
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + split)
        let events = bytes[start..<end].withUnsafeBytes { piece in
            session.receive(piece)
            return session.takeEvents()
        }
        for event in events { answer(event, session: session, options: options) }
        // Option bit 6: passes bounded as the proxy bounds them, so a DATA frame written
        // straight from a stream's queue can end one (NGHTTP2_ERR_PAUSE).
        var output: [UInt8] = []
        repeat {
            let before = output.count
            session.send(into: &output, limit: options & 64 != 0 ? before + 5000 : .max)
            if output.count == before { break }
        } while options & 64 != 0
        HTTP2FuzzCheck.wholeFrames(output)
        start = end
    }
    return 0
}

/// Answers what the session handed out, as the proxy would.
private func answer(_ event: HTTP2Event, session: HTTP2Session, options: UInt8) {
    switch event {
    case .headers(let streamID, let block):
        FuzzCheck.require(streamID > 0 && streamID % 2 == 1, "request on stream \(streamID)")
        guard block.kind == .request else { return }
        guard let head = try? block.requestHead() else {
            session.resetStream(streamID: streamID, errorCode: .protocolError)
            return
        }
        HTTP2FuzzCheck.forwardable(head, authority: block.authority)
        if options & 2 != 0 {
            session.resetStream(streamID: streamID, errorCode: .internalError)
            return
        }
        var response = HTTPHead()
        response.status = 200
        response.headers.add(name: "Content-Type", value: "text/plain")
        response.headers.add(name: "Connection", value: "close")
        let endStream = options & 4 != 0
        try? session.submitResponse(streamID: streamID, fields: response.http2ResponseFields(), endStream: endStream)
        if !endStream {
            // Option bit 5: a body whose frames are 4 KiB and more, which nghttp2 leaves to
            // the session to write from the queue (NGHTTP2_DATA_FLAG_NO_COPY).
            session.sendBody(streamID: streamID, [UInt8](repeating: 0x61, count: options & 32 != 0 ? 40_000 : 3000))
            var trailers = HTTPHeaders()
            trailers.add(name: "grpc-status", value: "0")
            session.finishBody(streamID: streamID, trailers: options & 8 != 0 ? trailers : nil)
        }
    case .data(let streamID, let bytes):
        if options & 16 == 0 { session.consume(streamID: streamID, count: bytes.count) }
    case .refused(let streamID, _):
        session.resetStream(streamID: streamID, errorCode: .refusedStream)
    default:
        break
    }
}

/// The invariants on what the session writes and hands out.
enum HTTP2FuzzCheck {
    /// Fields an HTTP/1.1 hop must never receive from an HTTP/2 request.
    static let connectionSpecific: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]

    /// `output` is frames back to back: each header's length covers exactly its payload.
    static func wholeFrames(_ output: [UInt8]) {
        var index = 0
        while index < output.count {
            FuzzCheck.require(index + 9 <= output.count, "a partial frame header in the output")
            let length = Int(output[index]) << 16 | Int(output[index + 1]) << 8 | Int(output[index + 2])
            FuzzCheck.require(length <= 16384, "a frame of \(length) bytes")
            index += 9 + length
        }
        FuzzCheck.require(index == output.count, "a frame runs past the output")
    }

    /// The request head is one an HTTP/1.1 upstream may receive.
    static func forwardable(_ head: HTTPHead, authority: [UInt8]?) {
        FuzzCheck.require(head.versionMajor == 1 && head.versionMinor == 1, "version \(head.versionMajor).\(head.versionMinor)")
        FuzzCheck.require(head.method == "CONNECT" || head.target.first == UInt8(ascii: "/") || head.target == [UInt8(ascii: "*")],
                          "target \(FuzzCheck.show(head.target))")
        for (name, value) in head.headers.pairs {
            FuzzCheck.require(!name.isEmpty && name == name.lowercased(), "field name \(FuzzCheck.show(name))")
            FuzzCheck.require(!connectionSpecific.contains(name), "connection-specific field \(name)")
            FuzzCheck.require(!value.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 }, "CR, LF or NUL in \(name)")
            FuzzCheck.require(name != "te" || value == "trailers", "TE: \(FuzzCheck.show(value))")
        }
        if let authority {
            let hosts = head.headers.pairs.filter { $0.name == "host" }
            FuzzCheck.require(hosts.count == 1 && Array(hosts[0].value.utf8) == authority, "Host differs from :authority")
        }
    }
}
