/// The hand-written part of the differential corpus: hostile requests and responses, and
/// the pipelining, abort and upstream-close cases. Each case runs its
/// sequences one after another on a fresh stack with one event loop, so the "victim" that
/// follows an attacker gets the attacker's pooled upstream connection if it was kept.
enum DifferentialEdgeCases {
    typealias Field = StrictMessage.Field
    typealias Outcome = DifferentialRequest.Outcome

    /// Own response, or a 4xx refusal: what a hostile request may get.
    static let hostile = Outcome(reach: .allowed, ownStatus: 200, proxyStatuses: [400, 502], benign: false)

    static func get(_ nonce: String, _ path: String, respond: String = "cl", size: Int = 64, outcome: Outcome = Outcome(),
                    headers: [Field] = []) -> DifferentialRequest {
        DifferentialRequest(nonce: nonce, method: "GET", target: path, headers: headers, respond: respond, size: size, outcome: outcome)
    }

    static func post(_ nonce: String, _ path: String, bytes: Int, chunked: Bool = false, respond: String = "cl", size: Int = 64,
                     outcome: Outcome = Outcome(), headers: [Field] = []) -> DifferentialRequest {
        let body = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let framing: DifferentialRequest.Framing = chunked
            ? .chunked(sizes: [1, 300, 17], extensions: true, trailers: [Field(name: "X-Body-Check", value: "abc")])
            : .contentLength
        return DifferentialRequest(nonce: nonce, method: "POST", target: path, headers: headers, body: body, framing: framing,
                                   respond: respond, size: size, outcome: outcome)
    }

    /// A victim on a connection of its own that must get its own answers.
    static func victim(_ name: String) -> DifferentialSequence {
        DifferentialSequence(name: "\(name) victim",
                             requests: [get("\(name)-victim-get", "/echo/victim", size: 200),
                                        post("\(name)-victim-post", "/echo/victim", bytes: 700, size: 300)],
                             pipelined: false, mustAnswerAll: true)
    }

    static func smuggledRequest(_ nonce: String) -> String {
        "GET /echo/smuggled HTTP/1.1\r\nHost: differential.test\r\nX-Nonce: \(nonce)\r\nX-Respond: cl 64\r\n\r\n"
    }

    static var all: [DifferentialCase] {
        var cases: [DifferentialCase] = []

        // Defect 2, request side: Connection names the framing header.
        let smuggledCL = Array(smuggledRequest("smuggled-by-connection-cl").utf8)
        cases.append(DifferentialCase(name: "request Connection: content-length", sequences: [
            DifferentialSequence(name: "attacker", requests: [
                DifferentialRequest(nonce: "conn-cl-attacker", method: "POST", target: "/echo/attacker",
                                    headers: [Field(name: "Connection", value: "content-length")], body: smuggledCL,
                                    framing: .contentLength, outcome: hostile),
            ], pipelined: false),
            victim("conn-cl"),
        ], defect: "2"))
        let smuggledTE = Array(smuggledRequest("smuggled-by-connection-te").utf8)
        cases.append(DifferentialCase(name: "request Connection: transfer-encoding", sequences: [
            DifferentialSequence(name: "attacker", requests: [
                DifferentialRequest(nonce: "conn-te-attacker", method: "POST", target: "/echo/attacker",
                                    headers: [Field(name: "Connection", value: "transfer-encoding")], body: smuggledTE,
                                    framing: .chunked(sizes: [smuggledTE.count], extensions: false, trailers: []), outcome: hostile),
            ], pipelined: false),
            victim("conn-te"),
        ], defect: "2"))
        cases.append(DifferentialCase(name: "request Connection: host", sequences: [
            DifferentialSequence(name: "attacker", requests: [
                get("conn-host-attacker", "/echo/attacker", outcome: hostile, headers: [Field(name: "Connection", value: "host")]),
            ], pipelined: false),
            victim("conn-host"),
        ], defect: "2"))

        // Defect 2, response side.
        for mode in ["conn-cl", "conn-te"] {
            cases.append(DifferentialCase(name: "response Connection: \(mode == "conn-cl" ? "content-length" : "transfer-encoding")", sequences: [
                DifferentialSequence(name: "client", requests: [
                    get("\(mode)-response", "/echo/a", respond: mode, size: 300,
                        outcome: Outcome(reach: .allowed, ownStatus: 200, proxyStatuses: [502], benign: false)),
                    get("\(mode)-response-next", "/echo/b", size: 100),
                ], pipelined: false),
                victim("\(mode)-response"),
            ], defect: "2"))
        }

        // The response side of smuggling: an origin that answers twice to one request. The
        // extra answer must never reach the next client on that pooled connection.
        cases.append(DifferentialCase(name: "origin sends an unsolicited response after one", sequences: [
            DifferentialSequence(name: "client", requests: [
                get("extra-response", "/echo/a", respond: "extra", size: 100,
                    outcome: Outcome(reach: .allowed, ownStatus: 200, proxyStatuses: [502], benign: false)),
            ], pipelined: false),
            victim("extra-response-1"),
            victim("extra-response-2"),
        ], defect: "2 (response side)"))

        // Defect 3: a chunk size that turns out malformed after the head was forwarded (sent
        // at once, in two writes, or with a request pipelined behind it). Whether the stranded
        // bytes meet a later request depends on timing, so each case plays eight rounds.
        for variant in ["one write", "two writes", "pipelined"] {
            var sequences: [DifferentialSequence] = []
            for round in 0..<8 {
                let nonce = "chunk-0_2e-\(variant.replacingOccurrences(of: " ", with: "-"))-\(round)"
                let head = "POST /echo/attacker HTTP/1.1\r\nHost: differential.test\r\nX-Nonce: \(nonce)\r\nX-Respond: cl 64\r\nTransfer-Encoding: chunked\r\n\r\n"
                var attacker = DifferentialRequest(nonce: nonce, method: "POST", target: "/echo/attacker",
                                                   rawHeaders: [Field(name: "Transfer-Encoding", value: "chunked")],
                                                   rawBody: Array("5\r\nhello\r\n0_2e\r\n\r\n".utf8), decodedBody: Array("hello".utf8),
                                                   outcome: Outcome(reach: .allowed, ownStatus: nil, proxyStatuses: [400], benign: false))
                if variant == "two writes" { attacker.splits = [head.utf8.count + "5\r\nhello\r\n".utf8.count] }
                var requests = [attacker]
                if variant == "pipelined" { requests.append(get("\(nonce)-behind", "/echo/behind")) }
                sequences += [DifferentialSequence(name: "attacker \(round)", requests: requests, pipelined: variant == "pipelined"),
                              victim(nonce)]
            }
            cases.append(DifferentialCase(name: "malformed chunk size after the head (0_2e), \(variant)", sequences: sequences, defect: "3"))
        }

        // Defect 4: pipelined requests behind one the proxy answers itself.
        cases.append(DifferentialCase(name: "pipelined behind a 404", sequences: [
            DifferentialSequence(name: "pipeline", requests: [
                get("p404-a", "/echo/a"),
                get("p404-b", "/nf/b", outcome: Outcome(reach: .never, ownStatus: nil, proxyStatuses: [404], benign: false)),
                get("p404-c", "/echo/c", size: 500),
                post("p404-d", "/echo/d", bytes: 300),
            ], pipelined: true, mustAnswerAll: true),
            victim("p404"),
        ], defect: "4"))
        cases.append(DifferentialCase(name: "pipelined behind a status fault", sequences: [
            DifferentialSequence(name: "pipeline", requests: [
                get("p503-a", "/fault/a", outcome: Outcome(reach: .never, ownStatus: nil, proxyStatuses: [503], benign: false)),
                get("p503-b", "/echo/b"),
                get("p503-c", "/fault/c", outcome: Outcome(reach: .never, ownStatus: nil, proxyStatuses: [503], benign: false)),
                post("p503-d", "/echo/d", bytes: 2000, chunked: true),
            ], pipelined: true, mustAnswerAll: true),
            victim("p503"),
        ], defect: "4"))
        cases.append(DifferentialCase(name: "pipelined behind a 413", sequences: [
            DifferentialSequence(name: "pipeline", requests: [
                post("p413-a", "/echo/a", bytes: DifferentialStack.bodyLimit + 5000,
                     outcome: Outcome(reach: .never, ownStatus: nil, proxyStatuses: [413], benign: false)),
                get("p413-b", "/echo/b"),
            ], pipelined: true),
            victim("p413"),
        ], defect: "4"))
        cases.append(DifferentialCase(name: "pipelined behind a 404 with a body", sequences: [
            DifferentialSequence(name: "pipeline", requests: [
                post("p404body-a", "/nf/a", bytes: 3000, outcome: Outcome(reach: .never, ownStatus: nil, proxyStatuses: [404], benign: false)),
                get("p404body-b", "/echo/b"),
            ], pipelined: true),
            victim("p404body"),
        ], defect: "4"))

        // Framing that must pass untouched.
        cases.append(DifferentialCase(name: "chunked with extensions and trailers, pipelined", sequences: [
            DifferentialSequence(name: "pipeline", requests: [
                post("chunky-a", "/echo/a", bytes: 1500, chunked: true, respond: "chunked", size: 4000),
                get("chunky-b", "/echo/b", respond: "chunked", size: 10),
                post("chunky-c", "/echo/c", bytes: 40, respond: "eof", size: 700),
                post("chunky-d", "/echo/d", bytes: 0, chunked: true, respond: "cl", size: 0),
            ], pipelined: true, mustAnswerAll: true),
        ]))
        cases.append(DifferentialCase(name: "Connection: close in the middle of a pipeline", sequences: [
            DifferentialSequence(name: "pipeline", requests: [
                get("pclose-a", "/echo/a"),
                get("pclose-b", "/echo/b", headers: [Field(name: "Connection", value: "close")]),
                get("pclose-c", "/echo/c", outcome: Outcome(reach: .never, ownStatus: nil, proxyStatuses: [], benign: false)),
            ], pipelined: true, answerLimit: 2),
        ]))

        // Aborts and upstream closes, each followed by a victim.
        var giveUp = post("abort-body", "/echo/a", bytes: 20000, outcome: Outcome(reach: .allowed, ownStatus: nil, benign: false))
        giveUp.abortAfter = giveUp.wire.count - 15000
        cases.append(DifferentialCase(name: "client closes mid-body", sequences: [
            DifferentialSequence(name: "quitter", requests: [giveUp], pipelined: false), victim("abort-body"),
        ]))
        var leaveEarly = get("abort-response", "/echo/a", size: 300_000, outcome: Outcome(reach: .allowed, ownStatus: 200, benign: false))
        leaveEarly.closeAfterResponseBytes = 2000
        cases.append(DifferentialCase(name: "client closes mid-response", sequences: [
            DifferentialSequence(name: "quitter", requests: [leaveEarly], pipelined: false), victim("abort-response"),
        ]))
        for mode in ["mid", "midchunk", "drop"] {
            cases.append(DifferentialCase(name: "upstream closes mid-response (\(mode))", sequences: [
                DifferentialSequence(name: "client", requests: [
                    get("up-\(mode)", "/echo/a", respond: mode, size: 20000, outcome: Outcome(reach: .allowed, ownStatus: nil, benign: false)),
                ], pipelined: false),
                victim("up-\(mode)"),
            ]))
        }
        cases.append(DifferentialCase(name: "upstream closes the keep-alive connection between requests", sequences: [
            DifferentialSequence(name: "client", requests: [
                get("between-a", "/echo/a", respond: "then-close"),
                get("between-b", "/echo/b", respond: "then-close", size: 10),
                post("between-c", "/echo/c", bytes: 500, respond: "then-close"),
                get("between-d", "/echo/d", size: 3000),
            ], pipelined: false),
            victim("between"),
        ]))
        cases.append(DifferentialCase(name: "truncate fault, then another client", sequences: [
            DifferentialSequence(name: "client", requests: [
                get("trunc-a", "/trunc/a", size: 50000, outcome: Outcome(reach: .allowed, ownStatus: nil, benign: false)),
            ], pipelined: false),
            victim("trunc"),
        ]))
        cases.append(DifferentialCase(name: "close-delimited response, then the same connection", sequences: [
            DifferentialSequence(name: "client", requests: [
                get("eof-a", "/echo/a", respond: "eof", size: 5000),
                get("eof-b", "/echo/b"),
            ], pipelined: false, mustAnswerAll: true),
        ]))
        return cases
    }
}
