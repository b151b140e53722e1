import FaultlineHTTP
@testable import FaultlineProxy
import FaultlineConfig

/// Request heads through the decoder and the upstream head writer, as the proxy does in
/// `ExchangeStarter.start`. Invariant: for every head the proxy forwards, what
/// it writes upstream parses strictly (an RFC 9112 parser independent of llhttp, and again
/// with Faultline's decoder) to the same message: method, origin-form target, HTTP/1.1,
/// the end-to-end fields unchanged and in order, no hop-by-hop field, exactly one valid
/// Host, and the framing the proxy computed, whatever the Connection header names.
///
/// Input: an options byte, a split offset, then the raw request bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let split = Int(input.byte())
    let message = input.rest()
    guard let received = HeadDecoding.firstHead(message, kind: .request, split: split) else { return 0 }
    RequestHeadCheck(received: received, options: options, message: message).run()
    return 0
}

/// One request head and the checks on what the proxy writes for it.
struct RequestHeadCheck {
    let received: HTTPHead
    let options: UInt8
    let message: [UInt8]

    private static let upstreamPreserving = UpstreamConfig(name: "origin", host: "origin.test", port: 8080, hostHeader: .preserve)
    private static let upstreamRewriting = UpstreamConfig(name: "origin", host: "origin.test", port: 8080, hostHeader: .upstream)
    private static let controls = ["x-faultline-delay-ms", "x-faultline-status"]
    private static let clientIP = "192.0.2.7"
    /// Fields the proxy writes itself; compared by dedicated checks, not as end-to-end fields.
    private static let managed: Set<String> = [
        "host", "via", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-request-id",
        "content-length", "transfer-encoding",
    ]

    func fail(_ what: String, _ written: [UInt8]) -> Never {
        FuzzCheck.fail("request head: \(what)\n  received: \(FuzzCheck.show(message))\n  written:  \(FuzzCheck.show(written))")
    }

    /// The proxy's own answers (405, 400) end the exchange before anything is written upstream.
    /// This mirrors `ExchangeStarter` (its refusals); when the proxy refuses more heads
    ///, call the same validation here so the target checks what it forwards.
    private func forwarded(_ head: HTTPHead) -> Bool {
        if head.method == "CONNECT" { return false }
        let hostCount = head.headers.count(of: "host")
        return !(hostCount > 1 || (hostCount == 0 && head.versionMinor >= 1))
    }

    func run() {
        var head = received
        if let origin = received.originFormTarget { head.target = origin }
        guard forwarded(head) else { return }
        let framing = BodyFraming.forwarding(request: head)
        let preserve = options & 1 == 0
        let requestID = options & 2 == 0 ? nil : "req-0001"
        let dropControls = options & 4 != 0
        let upstream = preserve ? Self.upstreamPreserving : Self.upstreamRewriting
        let written = RequestHeadWriter.upstreamHead(
            for: head, framing: framing, clientIP: Self.clientIP, scheme: "http", upstream: upstream,
            upgrade: head.isUpgrade, requestID: requestID, dropping: dropControls ? Self.controls : [])

        let strict: StrictHead
        switch StrictHead.parse(written, request: true) {
        case .success(let parsed): strict = parsed
        case .failure(let error): fail("not strictly valid: \(error)", written)
        }
        if strict.length != written.count { fail("bytes after the head", written) }
        if strict.method != Array(head.method.utf8) { fail("method changed", written) }
        if strict.target != head.target { fail("target changed", written) }
        if strict.version != (1, 1) { fail("version is not HTTP/1.1", written) }

        // Framing: from what the proxy computed, never from what the client's Connection removed.
        let expected: StrictHead.Framing
        switch framing {
        case .none, .untilClose: expected = .none
        case .contentLength(let length): expected = .contentLength(length)
        case .chunked: expected = .chunked
        }
        switch strict.framing() {
        case .success(let declared):
            // An empty body may be declared with Content-Length: 0 or not at all.
            if declared != expected && !(expected == .none && declared == .contentLength(0)) {
                fail("framing \(declared), the proxy forwards the body as \(expected)", written)
            }
        case .failure(let error):
            fail("ambiguous framing: \(error)", written)
        }

        // Host: exactly one, valid, and the client's (preserve) or the upstream's.
        let hosts = strict.values("host")
        if hosts.count != 1 { fail("\(hosts.count) Host fields", written) }
        if !StrictHead.isValidHost(hosts[0]) { fail("invalid Host \(FuzzCheck.show(hosts[0]))", written) }
        let clientHost = head.headers.first("host").map { Array($0.utf8) }
        if preserve, let clientHost, hosts[0] != clientHost { fail("Host not preserved", written) }
        if !preserve, hosts[0] != Array(upstream.hostHeaderValue.utf8) { fail("Host not rewritten", written) }

        let forwardedFor = strict.values("x-forwarded-for")
        if forwardedFor.count != 1 || !forwardedFor[0].reversed().starts(with: Array(Self.clientIP.utf8).reversed()) {
            fail("X-Forwarded-For does not end with the client address", written)
        }
        if let requestID, strict.values("x-request-id") != [Array(requestID.utf8)] { fail("X-Request-ID not replaced", written) }

        // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 request is faulty framing.
        if head.versionMajor == 1 && head.versionMinor == 0 && head.headers.count(of: "transfer-encoding") > 0 {
            fail("an HTTP/1.0 request with Transfer-Encoding is forwarded", written)
        }
        // An h2c upgrade is for the next hop only: forwarding it hands the upstream a protocol switch.
        // The offer is the list element `h2c` (RFC 9110 §7.8); other text that merely contains
        // those letters offers nothing.
        for value in strict.values("upgrade") {
            let elements = String(decoding: value.map(lower), as: UTF8.self).split(separator: ",")
            if elements.contains(where: { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) == ["h2c"] }) {
                fail("Upgrade: h2c is forwarded", written)
            }
        }
        checkEndToEnd(head, strict, dropControls: dropControls, written)
        checkDecoderAgrees(head, framing: framing, written)
    }

    /// End-to-end fields arrive unchanged and in order; hop-by-hop ones do not arrive.
    private func checkEndToEnd(_ head: HTTPHead, _ strict: StrictHead, dropControls: Bool, _ written: [UInt8]) {
        let fields = HeadDecoding.fields(head.headers)
        let listed = HeadDecoding.connectionOptions(fields)
        var skipped = Self.managed
        if dropControls { skipped.formUnion(Self.controls) }
        let expected = fields.filter { field in
            let name = field.lowercaseName
            return !skipped.contains(name) && !HeadDecoding.hopByHop.contains(name) && !listed.contains(name)
        }
        var actual = strict.fields.filter { !skipped.contains($0.lowercaseName) }
        if head.isUpgrade {
            // The one hop-by-hop exchange a proxy passes on: Connection: upgrade plus the client's Upgrade.
            let connection = actual.filter { $0.lowercaseName == "connection" }
            if connection.map(\.value) != [Array("upgrade".utf8)] { fail("upgrade without Connection: upgrade", written) }
            // Upgrade is a list: several field lines are one list (RFC 9110 §5.3).
            if !actual.contains(where: { $0.lowercaseName == "upgrade" }) { fail("upgrade without an Upgrade field", written) }
            actual.removeAll { $0.lowercaseName == "connection" || $0.lowercaseName == "upgrade" }
        }
        if actual != expected {
            let show = { (list: [StrictHead.Field]) in list.map { FuzzCheck.show($0.name + Array(": ".utf8) + $0.value) }.joined(separator: ", ") }
            fail("end-to-end fields differ\n  expected: \(show(expected))\n  actual:   \(show(actual))", written)
        }
    }

    /// Faultline's own decoder reads the written head as the same request with the same framing.
    private func checkDecoderAgrees(_ head: HTTPHead, framing: BodyFraming, _ written: [UInt8]) {
        guard let again = HeadDecoding.firstHead(written, kind: .request, split: written.count) else {
            fail("Faultline's decoder refuses the written head", written)
        }
        if again.method != head.method || again.target != head.target { fail("decoder reads another request line", written) }
        if again.isChunked != (framing == .chunked) { fail("decoder reads chunked \(again.isChunked)", written) }
        if case .contentLength(let length) = framing, again.contentLength != length {
            fail("decoder reads Content-Length \(String(describing: again.contentLength)), expected \(length)", written)
        }
    }
}
