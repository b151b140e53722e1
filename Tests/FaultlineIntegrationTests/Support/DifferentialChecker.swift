import Foundation
import FaultlineTestSupport

/// The invariants of the differential framing test, checked on what the clients saw and on
/// what the origin read (re-parsed strictly):
/// - the origin's bytes on every upstream connection parse as clean HTTP/1.1, and each
///   request in them is exactly one a client sent (method, target, end-to-end fields, body);
/// - no upstream connection is left open holding part of a request;
/// - each client gets its own responses, in order, or an error (a proxy status it may get,
///   or a closed connection); never bytes of another exchange, never a stall.
struct DifferentialChecker {
    let testCase: DifferentialCase
    let transcripts: [DifferentialTranscript]

    /// Violations found, one line each, most important first.
    private(set) var violations: [String] = []
    /// Plain exchanges that got their own complete response, of all plain exchanges.
    private(set) var benignAnswered = 0
    private(set) var benignTotal = 0

    init(testCase: DifferentialCase, transcripts: [DifferentialTranscript]) {
        self.testCase = testCase
        self.transcripts = transcripts
    }

    // MARK: - clients

    /// Checks every client transcript against its sequence.
    mutating func checkClients() {
        for (sequence, transcript) in zip(testCase.sequences, transcripts) {
            checkClient(sequence, transcript)
        }
    }

    private mutating func checkClient(_ sequence: DifferentialSequence, _ transcript: DifferentialTranscript) {
        let before = violations.count
        defer {
            if violations.count > before {
                let lines = sequence.requests.enumerated().map { "    \($0.offset): \($0.element.summary)" }
                violations.append("  client \(sequence.name) sent (ended \(transcript.end)):\n" + lines.joined(separator: "\n"))
            }
        }
        let requests = sequence.requests
        let closed = transcript.end == .closedByPeer
        let parsed = StrictHTTPParser.responses(transcript.received, methods: requests.map(\.method), closed: closed)
        let where_ = "client \(sequence.name)"
        if parsed.messages.count > requests.count {
            fail("\(where_): \(parsed.messages.count) responses to \(requests.count) requests (bytes of another exchange)")
        }
        var disrupted = false
        for (index, request) in requests.enumerated() {
            let countsAsBenign = request.outcome.benign && !disrupted
            if countsAsBenign { benignTotal += 1 }
            guard index < parsed.messages.count else { break }
            let response = parsed.messages[index]
            let label = "\(where_) request \(index) (\(request.method) \(request.target), nonce \(request.nonce))"
            if let nonce = response.header("x-nonce") {
                if nonce != request.nonce {
                    fail("MISROUTED \(label): got the response of nonce \(nonce) (status \(response.status ?? 0))")
                    continue
                }
                checkOwnResponse(response, request, label: label)
                if countsAsBenign && response.status == request.expectedOwnStatus { benignAnswered += 1 }
            } else if let status = response.status, !request.outcome.proxyStatuses.contains(status) {
                fail("\(label): proxy answered \(status), expected \(request.outcome.ownStatus.map { "its own \($0) or " } ?? "")one of \(request.outcome.proxyStatuses.sorted()); body \(String(decoding: response.body.prefix(120), as: UTF8.self).debugDescription)")
            }
            if response.connectionLists("close") && index + 1 < parsed.messages.count {
                fail("\(label): a response after one that said Connection: close")
            }
            if !request.outcome.benign || request.abortAfter != nil || request.closeAfterResponseBytes != nil
                || response.header("x-nonce") == nil || response.connectionLists("close") {
                disrupted = true
            }
        }
        if let limit = sequence.answerLimit, parsed.messages.count > limit {
            fail("\(where_): \(parsed.messages.count) responses, at most \(limit) allowed (requests after Connection: close were answered)")
        }
        switch parsed.tail {
        case .invalid(let offset, let reason):
            fail("\(where_): received bytes that are not HTTP/1.1 at offset \(offset): \(reason); near \(Self.context(transcript.received, offset))")
        case .partialBody(let response):
            let index = parsed.messages.count
            if index < requests.count, let nonce = response.header("x-nonce") {
                let request = requests[index]
                if nonce != request.nonce {
                    fail("MISROUTED \(where_) request \(index): a cut response of nonce \(nonce), sent \(request.nonce)")
                } else if !request.expectedResponseBody.starts(with: response.body) {
                    fail("CORRUPTED \(where_) request \(index): the start of its cut response differs from what the origin sent")
                }
            }
            if transcript.end == .complete || transcript.end == .stalled {
                fail("\(where_): a response was cut and the connection stayed open (\(transcript.end))")
            }
        case .partialHead, .none:
            break
        }
        let answered = parsed.messages.count
        if transcript.end == .stalled {
            fail("STALLED \(where_): \(answered) of \(requests.count) responses (sent \(transcript.sentComplete)), then neither a response nor a close; received \(Self.summary(parsed))")
        } else if sequence.mustAnswerAll && answered < requests.count {
            fail("\(where_): \(answered) of \(requests.count) responses before \(transcript.end) (every request must be answered); received \(Self.summary(parsed))")
        }
    }

    private mutating func checkOwnResponse(_ response: StrictMessage, _ request: DifferentialRequest, label: String) {
        guard let status = request.outcome.ownStatus else {
            fail("\(label): a complete own response (\(response.status ?? 0)) where the origin or a fault must have cut it")
            return
        }
        if response.status != status {
            fail("\(label): own response with status \(response.status ?? 0), expected \(status)")
        }
        if response.header("x-body-sha256") != SHA256.hex(request.body) {
            fail("CORRUPTED \(label): the origin decoded a different request body (\(response.header("x-body-length") ?? "?") bytes, sent \(request.body.count))")
        }
        if response.body != request.expectedResponseBody {
            fail("CORRUPTED \(label): response body of \(response.body.count) bytes differs from the \(request.expectedResponseBody.count) the origin sent")
        }
        if let trailer = response.trailers.first(where: { $0.name == "x-trailer-nonce" }), trailer.value != request.nonce {
            fail("MISROUTED \(label): trailer of nonce \(trailer.value)")
        }
    }

    // MARK: - origin

    /// Checks what the origin read on every connection against what the clients sent.
    mutating func checkOrigin(_ connections: [RecordingOrigin.Connection]) {
        var sent: [String: DifferentialRequest] = [:]
        for sequence in testCase.sequences {
            for request in sequence.requests { sent[request.nonce] = request }
        }
        var seen: [String: Int] = [:]
        for connection in connections {
            let parsed = StrictHTTPParser.requests(connection.bytes)
            let where_ = "origin connection \(connection.number)"
            for message in parsed.messages {
                guard let nonce = message.header("x-nonce"), let request = sent[nonce] else {
                    fail("SMUGGLED \(where_): received a request no client sent: \(message.method ?? "") \(message.target ?? "") X-Nonce \(message.values("x-nonce")) at offset \(message.offset)")
                    continue
                }
                seen[nonce, default: 0] += 1
                compare(message, request, where: where_, complete: true)
            }
            switch parsed.tail {
            case .none:
                break
            case .invalid(let offset, let reason):
                fail("DESYNC \(where_): bytes that are not HTTP/1.1 at offset \(offset) of \(connection.bytes.count): \(reason); near \(Self.context(connection.bytes, offset))")
            case .partialHead(let offset, let bytes):
                fail("\(where_): a partial request head at offset \(offset): \(String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription)")
            case .partialBody(let message):
                if let nonce = message.header("x-nonce"), let request = sent[nonce] {
                    compare(message, request, where: where_, complete: false)
                } else {
                    fail("SMUGGLED \(where_): part of a request no client sent: \(message.method ?? "") \(message.target ?? "")")
                }
                if !connection.ended {
                    fail("DESYNC \(where_): left open holding part of a request (\(message.method ?? "") \(message.target ?? ""), \(message.body.count) body bytes): the next request on it would be read as this body")
                }
            }
        }
        for (nonce, count) in seen where count > 1 {
            if let request = sent[nonce], !request.isIdempotent {
                fail("\(request.method) \(request.target) (nonce \(nonce)) reached the origin \(count) times: a non-idempotent request was retried")
            }
        }
    }

    private mutating func compare(_ message: StrictMessage, _ request: DifferentialRequest, where place: String, complete: Bool) {
        let label = "\(place): \(request.method) \(request.target) (nonce \(request.nonce))"
        if request.outcome.reach == .never {
            fail("\(label): forwarded, but the proxy must answer it itself")
        }
        if message.method != request.method || message.target != request.target {
            fail("\(label): received as \(message.method ?? "") \(message.target ?? "")")
        }
        let received = DifferentialRequest.comparableHeaders(message.headers)
        let expected = request.endToEndHeaders
        if received != expected {
            let missing = expected.filter { received[$0.key] != $0.value }.map { "\($0.key): \($0.value)" }
            let extra = received.filter { expected[$0.key] != $0.value }.map { "\($0.key): \($0.value)" }
            fail("\(label): header fields differ; sent \(missing.sorted()), origin got \(extra.sorted())")
        }
        if complete {
            if message.body != request.body {
                fail("\(label): body differs: sent \(request.body.count) bytes, origin decoded \(message.body.count) (\(message.framing))")
            }
            for trailer in message.trailers where !request.trailers.contains(where: { $0.name.lowercased() == trailer.name && $0.value == trailer.value }) {
                fail("\(label): trailer \(trailer.name): \(trailer.value) that the client did not send")
            }
        } else if !request.body.starts(with: message.body) {
            fail("\(label): the part of the body received (\(message.body.count) bytes) is not a prefix of what was sent")
        }
    }

    /// The proxy process died during the case.
    mutating func recordCrash(_ output: String) {
        violations.insert("CRASH the proxy exited during the case; last output:\n\(output.suffix(2000))", at: 0)
    }

    // MARK: - helpers

    private mutating func fail(_ line: String) { violations.append(line) }

    private static func context(_ bytes: [UInt8], _ offset: Int) -> String {
        let start = max(0, offset - 40)
        let end = min(bytes.count, offset + 80)
        return String(decoding: bytes[start..<end], as: UTF8.self).debugDescription
    }

    private static func summary(_ parsed: StrictHTTPParser.Result) -> String {
        let statuses = parsed.messages.map { "\($0.status ?? 0)\($0.header("x-nonce").map { " \($0)" } ?? "")" }
        return "[\(statuses.joined(separator: ", "))]"
    }
}
