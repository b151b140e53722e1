import FaultlineHTTP
@testable import FaultlineProxy

/// Response heads through the decoder and the client head writer, as the proxy does in
/// `ExchangeMachine.responseHeadReceived(_:)` and `DownstreamConnection.writeResponseHead`.
/// Invariant: what the client gets parses strictly (an RFC 9112 parser independent of
/// llhttp, and again with Faultline's decoder) to the same response: status and reason,
/// HTTP/1.1, the end-to-end fields unchanged and in order, no hop-by-hop field, and
/// exactly the framing the proxy uses to send the body (RFC 9110 §8.6, RFC 9112 §6: no Content-Length or Transfer-Encoding on
/// 1xx and 204, no Transfer-Encoding on 304, Connection: close on a close-delimited body),
/// whatever the upstream's Connection header names.
///
/// Input: an options byte (HEAD request, client HTTP/1.0, client keep-alive, upgrade
/// requested), a split offset, then the raw response bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let split = Int(input.byte())
    let message = input.rest()
    let check = ResponseHeadCheck(options: options, message: message)
    guard let received = HeadDecoding.firstHead(message, kind: .response, split: split, noBody: check.headRequest) else {
        return 0
    }
    check.run(received)
    return 0
}

/// One response head and the checks on what the proxy writes to the client for it.
struct ResponseHeadCheck {
    let options: UInt8
    let message: [UInt8]

    var headRequest: Bool { options & 1 != 0 }
    var clientMinor: Int { options & 2 != 0 ? 0 : 1 }
    var requestKeepAlive: Bool { options & 4 == 0 }
    var upgradeRequested: Bool { options & 8 != 0 }

    /// Fields the proxy writes itself; compared by dedicated checks.
    private static let managed: Set<String> = ["via", "content-length", "transfer-encoding"]

    func fail(_ what: String, _ written: [UInt8]) -> Never {
        FuzzCheck.fail("response head: \(what)\n  options: \(options)\n  received: \(FuzzCheck.show(message))\n  written:  \(FuzzCheck.show(written))")
    }

    func run(_ head: HTTPHead) {
        let framing: BodyFraming
        let keepAlive: Bool
        let upgrade: Bool
        if head.isInterim {
            // HTTP/1.0 clients get no interim responses.
            guard clientMinor >= 1 else { return }
            (framing, keepAlive, upgrade) = (.none, true, false)
        } else if head.status == 101 {
            // A 101 nobody asked for is answered with 502.
            guard upgradeRequested else { return }
            (framing, keepAlive, upgrade) = (.none, true, true)
        } else {
            framing = BodyFraming.forwarding(response: head, headRequest: headRequest, clientMinorVersion: clientMinor)
            keepAlive = requestKeepAlive && framing != .untilClose && !upgradeRequested
            upgrade = false
        }
        let written = ResponseHeadWriter.clientHead(for: head, framing: framing, keepAlive: keepAlive,
                                                   clientMinorVersion: clientMinor, upgrade: upgrade)
        let strict: StrictHead
        switch StrictHead.parse(written, request: false) {
        case .success(let parsed): strict = parsed
        case .failure(let error): fail("not strictly valid: \(error)", written)
        }
        if strict.length != written.count { fail("bytes after the head", written) }
        if strict.status != head.status { fail("status \(strict.status), received \(head.status)", written) }
        if !head.reason.isEmpty && strict.reason != head.reason { fail("reason phrase changed", written) }
        if strict.version != (1, 1) { fail("version is not HTTP/1.1", written) }

        checkFraming(strict, head: head, framing: framing, written)
        checkConnection(strict, keepAlive: keepAlive, upgrade: upgrade, interim: head.isInterim, written)
        checkEndToEnd(head, strict, upgrade: upgrade, written)
        if !head.isInterim && head.status != 101 {
            checkDecoderAgrees(head, framing: framing, written)
        }
    }

    /// The declared framing is the one the body is sent with, and legal for the status.
    private func checkFraming(_ strict: StrictHead, head: HTTPHead, framing: BodyFraming, _ written: [UInt8]) {
        let declared: StrictHead.Framing
        switch strict.framing() {
        case .success(let value): declared = value
        case .failure(let error): fail("ambiguous framing: \(error)", written)
        }
        let status = head.status
        if (100..<200).contains(status) || status == 204 {
            if declared != .none { fail("\(declared) on a \(status) response", written) }
            return
        }
        switch framing {
        case .contentLength(let length):
            if declared != .contentLength(length) { fail("declares \(declared), the body is sent with content-length \(length)", written) }
        case .chunked:
            if declared != .chunked { fail("declares \(declared), the body is sent chunked", written) }
        case .untilClose:
            if declared != .none { fail("declares \(declared), the body is sent until close", written) }
        case .none:
            // HEAD and 304 may repeat the Content-Length of the representation, never chunked.
            if declared == .chunked { fail("declares chunked on a response sent without a body", written) }
        }
    }

    /// Connection: close exactly when the proxy closes; upgrade only on a switch.
    private func checkConnection(_ strict: StrictHead, keepAlive: Bool, upgrade: Bool, interim: Bool, _ written: [UInt8]) {
        let options = HeadDecoding.connectionOptions(strict.fields)
        if upgrade {
            if options != ["upgrade"] { fail("101 without Connection: upgrade", written) }
            if strict.values("upgrade").isEmpty { fail("101 without an Upgrade field", written) }
            return
        }
        if interim { return }
        if !keepAlive && !options.contains("close") { fail("closes without Connection: close", written) }
        if keepAlive && options.contains("close") { fail("Connection: close on a kept connection", written) }
        if !options.subtracting(["close", "keep-alive"]).isEmpty { fail("Connection lists \(options)", written) }
    }

    /// End-to-end fields arrive unchanged and in order; hop-by-hop ones do not arrive.
    private func checkEndToEnd(_ head: HTTPHead, _ strict: StrictHead, upgrade: Bool, _ written: [UInt8]) {
        let fields = HeadDecoding.fields(head.headers)
        let listed = HeadDecoding.connectionOptions(fields)
        let expected = fields.filter { field in
            let name = field.lowercaseName
            return !Self.managed.contains(name) && !HeadDecoding.hopByHop.contains(name) && !listed.contains(name)
        }
        let actual = strict.fields.filter { field in
            let name = field.lowercaseName
            return !Self.managed.contains(name) && name != "connection" && !(upgrade && name == "upgrade")
        }
        if actual != expected {
            let show = { (list: [StrictHead.Field]) in list.map { FuzzCheck.show($0.name + Array(": ".utf8) + $0.value) }.joined(separator: ", ") }
            fail("end-to-end fields differ\n  expected: \(show(expected))\n  actual:   \(show(actual))", written)
        }
    }

    /// Faultline's own decoder reads the written head as the same response with the same framing.
    private func checkDecoderAgrees(_ head: HTTPHead, framing: BodyFraming, _ written: [UInt8]) {
        guard let again = HeadDecoding.firstHead(written, kind: .response, split: written.count, noBody: headRequest) else {
            fail("Faultline's decoder refuses the written head", written)
        }
        if again.status != head.status { fail("decoder reads status \(again.status)", written) }
        if again.isChunked != (framing == .chunked) { fail("decoder reads chunked \(again.isChunked)", written) }
        if case .contentLength(let length) = framing, again.contentLength != length {
            fail("decoder reads Content-Length \(String(describing: again.contentLength)), expected \(length)", written)
        }
    }
}
