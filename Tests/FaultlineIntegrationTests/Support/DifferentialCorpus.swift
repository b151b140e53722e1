import Foundation
import FaultlineTestSupport

/// The generated part of the differential corpus: `count` client sequences drawn from a
/// seed (keep-alive and pipelined; Content-Length and chunked bodies with extensions and
/// trailers; every response mode of the recording origin; the fault routes; clients that
/// give up mid-body or mid-response), run concurrently so they share the upstream pool.
enum DifferentialCorpus {
    typealias Field = StrictMessage.Field
    typealias Outcome = DifferentialRequest.Outcome

    static func random(seed: UInt64, count: Int) -> DifferentialCase {
        var rng = SplitMix64(seed: seed)
        let sequences = (0..<count).map { index in sequence(index, seed: seed, rng: &rng) }
        return DifferentialCase(name: "seed \(seed), \(count) sequences", sequences: sequences, concurrency: 8, workers: 2)
    }

    private static func sequence(_ index: Int, seed: UInt64, rng: inout SplitMix64) -> DifferentialSequence {
        let pipelined = rng.chance(0.4)
        let count = Int.random(in: 1...6, using: &rng)
        var requests: [DifferentialRequest] = []
        for position in 0..<count {
            let last = position == count - 1
            let nonce = "d\(seed)-s\(index)-r\(position)-\(String(rng.next() & 0xFFFFFF, radix: 16))"
            requests.append(request(nonce: nonce, sequence: index, position: position, last: last, pipelined: pipelined, rng: &rng))
        }
        return DifferentialSequence(name: "s\(index)\(pipelined ? " (pipelined)" : "")", requests: requests, pipelined: pipelined)
    }

    private static func request(nonce: String, sequence: Int, position: Int, last: Bool, pipelined: Bool,
                                rng: inout SplitMix64) -> DifferentialRequest {
        let route = rng.weighted([("echo", 55), ("slow", 8), ("flaky", 8), ("nf", 5), ("fault", 5), ("trunc", 4), ("cut", 4), ("rst", 3)])
        let cutting = ["trunc", "cut", "rst"].contains(route)
        var method = rng.weighted([("GET", 40), ("POST", 25), ("PUT", 10), ("DELETE", 5), ("PATCH", 6), ("HEAD", 6), ("OPTIONS", 4)])
        if cutting && !["GET", "POST"].contains(method) { method = "GET" }

        // Body.
        var body: [UInt8] = []
        var framing = DifferentialRequest.Framing.none
        let carriesBody = ["POST", "PUT", "PATCH"].contains(method) || (method != "HEAD" && rng.chance(0.1))
        if carriesBody {
            let size = rng.weighted([(0, 5), (Int.random(in: 1...100, using: &rng), 30), (Int.random(in: 101...4000, using: &rng), 45),
                                     (Int.random(in: 4001...40000, using: &rng), 15),
                                     (Int.random(in: DifferentialStack.bodyLimit + 1...DifferentialStack.bodyLimit + 30000, using: &rng), 5)])
            body = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if rng.chance(0.5) {
                framing = .contentLength
            } else {
                let sizes = (0..<Int.random(in: 0...5, using: &rng)).map { _ in Int.random(in: 1...max(1, size), using: &rng) }
                let trailers = rng.chance(0.25) ? [Field(name: "X-Body-Check", value: String(SHA256.hex(body).prefix(16)))] : []
                framing = .chunked(sizes: sizes, extensions: rng.chance(0.3), trailers: trailers)
            }
        }

        // The origin's answer.
        var mode = rng.weighted([("cl", 48), ("chunked", 25), ("eof", 6), ("then-close", 8), ("204", 3), ("mid", 3), ("midchunk", 2), ("drop", 3)])
        var size = rng.weighted([(Int.random(in: 0...3000, using: &rng), 85), (Int.random(in: 3001...150_000, using: &rng), 15)])
        if method == "HEAD" && !["cl", "chunked", "then-close"].contains(mode) { mode = "cl" }
        if cutting {
            mode = rng.chance(0.5) ? "cl" : "chunked"
            size = Int.random(in: 3000...60000, using: &rng)
        }

        // Outcome.
        var outcome = Outcome()
        switch route {
        case "nf":
            outcome = Outcome(reach: .never, ownStatus: nil, proxyStatuses: [404], benign: false)
        case "fault":
            outcome = Outcome(reach: .never, ownStatus: nil, proxyStatuses: [503], benign: false)
        case "flaky":
            outcome.proxyStatuses = [502, 503, 504]
            outcome.benign = false
        case "trunc", "cut", "rst":
            outcome.ownStatus = nil
            outcome.benign = false
        default:
            break
        }
        if ["mid", "midchunk", "drop"].contains(mode) && outcome.reach != .never {
            outcome.ownStatus = nil
            outcome.benign = false
        }
        if mode == "204" && outcome.ownStatus != nil { outcome.ownStatus = 204 }
        if body.count > DifferentialStack.bodyLimit {
            outcome.proxyStatuses.insert(413)
            outcome.ownStatus = nil
            outcome.benign = false
            if case .contentLength = framing { outcome.reach = .never }
        }

        // Header fields.
        var headers: [Field] = []
        for k in 0..<Int.random(in: 0...4, using: &rng) {
            headers.append(Field(name: "X-Field-\(k)", value: fieldValue(&rng)))
        }
        if rng.chance(0.1) { headers += [Field(name: "X-Dup", value: "one"), Field(name: "X-Dup", value: "two, three")] }
        if rng.chance(0.1) { headers.append(Field(name: "Connection", value: "keep-alive")) }
        if rng.chance(0.08) { headers += [Field(name: "Connection", value: "X-Hop"), Field(name: "X-Hop", value: "stops at the proxy")] }
        if rng.chance(0.05) { headers.append(Field(name: "Keep-Alive", value: "timeout=5")) }
        if rng.chance(0.05) { headers.append(Field(name: "TE", value: "trailers")) }
        if rng.chance(0.05) { headers += [Field(name: "User-Agent", value: "differential/1.0"), Field(name: "Accept", value: "*/*")] }
        if rng.chance(0.03) {
            // obs-text (bytes >= 0x80) is valid in a field value, but a proxy may refuse it.
            headers.append(Field(name: "X-Latin", value: "caf\u{e9} cr\u{e8}me"))
            outcome.proxyStatuses.insert(400)
            outcome.benign = false
        }
        if rng.chance(0.03) { headers.append(Field(name: "X-Tab", value: "a\tb")) }
        var closing = false
        if last && rng.chance(0.06) {
            headers.append(Field(name: "Connection", value: "close"))
            closing = true
        }

        // Target.
        var target = "/\(route)/s\(sequence)/r\(position)"
        if rng.chance(0.3) { target += "?q=\(rng.next() % 1000)&x=%20y" }
        if rng.chance(0.1) { target += ";p=1!$&'()*+,=@:" }

        var request = DifferentialRequest(nonce: nonce, method: method, target: target, headers: headers, body: body,
                                          framing: framing, respond: mode, size: size, outcome: outcome)
        if rng.chance(0.3) {
            request.splits = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 1..<request.wire.count, using: &rng) }
        }
        // Clients that give up: only last, only one at a time (a pipelined give-up is a half-close).
        if last && !pipelined && !closing && body.count >= 200 && rng.chance(0.08) {
            let head = request.wire.count - encodedBodyLength(request)
            request.abortAfter = head + Int.random(in: 1..<min(body.count, encodedBodyLength(request)), using: &rng)
            request.outcome.ownStatus = nil
            request.outcome.benign = false
        } else if last && !pipelined && !closing && size >= 20000 && ["cl", "chunked"].contains(mode)
                    && outcome.reach != .never && method != "HEAD" && rng.chance(0.3) {
            request.closeAfterResponseBytes = Int.random(in: 100...5000, using: &rng)
            request.outcome.benign = false
        }
        return request
    }

    private static func encodedBodyLength(_ request: DifferentialRequest) -> Int {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = request.wire.firstRange(of: separator) else { return 0 }
        return request.wire.count - end.upperBound
    }

    /// A field value with inner spaces and punctuation, never leading or trailing whitespace.
    private static func fieldValue(_ rng: inout SplitMix64) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,;:=/\"()[]{}?@!#$%&*+")
        let length = Int.random(in: 1...40, using: &rng)
        var value = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
        value = value.trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? "v" : value
    }
}
