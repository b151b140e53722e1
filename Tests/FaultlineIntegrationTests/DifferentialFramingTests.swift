import Foundation
import Testing
import FaultlineTestSupport

/// Differential framing test through the real binary ("Make the classes
/// impossible"): clients send a corpus of request sequences through Faultline to an origin
/// that records every byte it reads. What the origin read must parse strictly to exactly
/// what the clients sent, and every client must get exactly its own responses in order, or
/// an error; never another client's bytes, never a stall. See `DifferentialChecker` for the
/// invariants, `DifferentialEdgeCases` and `DifferentialCorpus` for the corpus.
///
/// `FAULTLINE_DIFF_SEED` and `FAULTLINE_DIFF_COUNT` change the generated corpus (default:
/// seed 20261201, 200 sequences); a failure names the seed so it can be replayed.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct DifferentialFramingTests {
    /// No byte and no close for this long while a response is due counts as a stall.
    static let stall: Duration = .seconds(10)

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["FAULTLINE_DIFF_SEED"].flatMap { UInt64($0) } ?? 20_261_201
    }

    static var count: Int {
        let requested = ProcessInfo.processInfo.environment["FAULTLINE_DIFF_COUNT"].flatMap { Int($0) } ?? 200
        return min(max(requested, 1), 5000)
    }

    @Test(arguments: DifferentialEdgeCases.all)
    func edgeCase(_ testCase: DifferentialCase) async throws {
        let checker = try await Self.run(testCase)
        Self.report(testCase, checker)
        #expect(checker.violations.isEmpty,
                "\(testCase.name)\(testCase.defect.map { " (defect \($0))" } ?? ""):\n\(checker.violations.joined(separator: "\n"))")
    }

    @Test func seededCorpus() async throws {
        let testCase = DifferentialCorpus.random(seed: Self.seed, count: Self.count)
        let checker = try await Self.run(testCase)
        Self.report(testCase, checker)
        let shown = checker.violations.prefix(60).joined(separator: "\n")
        #expect(checker.violations.isEmpty,
                "seed \(Self.seed): \(checker.violations.count) violations (first 60):\n\(shown)")
        // Plain exchanges must mostly succeed, or "an error" would excuse a proxy that fails everything.
        let rate = Double(checker.benignAnswered) / Double(max(checker.benignTotal, 1))
        #expect(checker.benignTotal > 0 && rate >= 0.8,
                "seed \(Self.seed): only \(checker.benignAnswered) of \(checker.benignTotal) plain exchanges got their own response")
    }

    /// The checker itself flags each class of defect, on synthetic input: a request stranded
    /// in front of the next one (defect 3), a pooled connection holding half a request, a
    /// body the origin decoded differently (defect 2), and another client's response (defect 4).
    @Test func checkerFlagsEachClass() {
        let attacker = DifferentialEdgeCases.post("self-attacker", "/echo/a", bytes: 5, chunked: true)
        let victim = DifferentialEdgeCases.get("self-victim", "/echo/v")
        let testCase = DifferentialCase(name: "self test", sequences: [
            DifferentialSequence(name: "attacker", requests: [attacker], pipelined: false),
            DifferentialSequence(name: "victim", requests: [victim, DifferentialEdgeCases.get("self-victim-2", "/echo/w")], pipelined: true),
        ])
        let head = { (request: DifferentialRequest) -> [UInt8] in
            let end = request.wire.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? request.wire.count
            return Array(request.wire[..<end])
        }
        let stranded = head(attacker) + Array("1\r\nx\r\n".utf8) + victim.wire
        let own = { (nonce: String) in
            "HTTP/1.1 200 OK\r\nX-Nonce: \(nonce)\r\nX-Body-SHA256: \(SHA256.hex([]))\r\nContent-Length: 64\r\n\r\n"
                + String(decoding: DifferentialRequest.responseBody(nonce: nonce, size: 64), as: UTF8.self)
        }
        let swapped = Array((own("self-victim-2") + own("self-victim")).utf8)
        var checker = DifferentialChecker(testCase: testCase, transcripts: [
            DifferentialTranscript(received: [], end: .closedByPeer, sentComplete: 1),
            DifferentialTranscript(received: swapped, end: .complete, sentComplete: 2),
        ])
        checker.checkClients()
        checker.checkOrigin([
            RecordingOrigin.Connection(number: 1, bytes: stranded, ended: true),
            RecordingOrigin.Connection(number: 2, bytes: head(attacker) + Array("1\r\nx".utf8), ended: false),
            RecordingOrigin.Connection(number: 3, bytes: head(victim) + head(victim), ended: false),
        ])
        let text = checker.violations.joined(separator: "\n")
        #expect(text.contains("DESYNC origin connection 1: bytes that are not HTTP/1.1"), "\(text)")
        #expect(text.contains("DESYNC origin connection 2: left open holding part of a request"), "\(text)")
        #expect(text.contains("MISROUTED client victim request 0"), "\(text)")
        #expect(text.contains("origin connection 2: POST /echo/a (nonce self-attacker): the part of the body received"), "\(text)")
    }

    // MARK: - running a case

    /// Runs every sequence of `testCase` against a fresh stack and checks the result.
    static func run(_ testCase: DifferentialCase) async throws -> DifferentialChecker {
        let stack = try await DifferentialStack.start(workers: testCase.workers, idle: testCase.concurrency > 1 ? 4 : 64)
        defer { stack.stop() }
        let origin = stack.origin
        let port = stack.port
        let sequences = testCase.sequences
        var transcripts = [DifferentialTranscript](repeating: DifferentialTranscript(), count: sequences.count)
        try await withThrowingTaskGroup(of: (Int, DifferentialTranscript).self) { group in
            var next = 0
            func launch(_ index: Int) {
                let sequence = sequences[index]
                group.addTask {
                    let transcript = try await Blocking.run {
                        DifferentialClient.run(sequence, port: port, stall: stall)
                    }
                    return (index, transcript)
                }
            }
            while next < min(testCase.concurrency, sequences.count) {
                launch(next)
                next += 1
            }
            for try await (index, transcript) in group {
                transcripts[index] = transcript
                if next < sequences.count {
                    launch(next)
                    next += 1
                }
            }
        }
        // Give the proxy a bounded moment to close upstream connections it abandoned; one
        // still open with part of a request after that is a defect (it would be reused).
        _ = try? await Deadline.poll("upstream connections to settle", timeout: .seconds(3), interval: .milliseconds(50)) { () -> Bool? in
            let settled = origin.connections().allSatisfy { connection in
                guard !connection.ended else { return true }
                if case .none = StrictHTTPParser.requests(connection.bytes).tail { return true }
                return false
            }
            return settled ? true : nil
        }
        var checker = DifferentialChecker(testCase: testCase, transcripts: transcripts)
        checker.checkClients()
        checker.checkOrigin(origin.connections())
        if !stack.proxy.child.isRunning {
            checker.recordCrash(stack.proxy.output.text)
        }
        return checker
    }

    /// One summary line per case in the test output, for the record of which cases fail, and
    /// every violation on a line of its own (`grep DIFFERENTIAL`).
    static func report(_ testCase: DifferentialCase, _ checker: DifferentialChecker) {
        for violation in checker.violations {
            print("DIFFERENTIAL-VIOLATION | \(testCase.name) | " + violation.replacingOccurrences(of: "\n", with: "\n    "))
        }
        let requests = testCase.sequences.reduce(0) { $0 + $1.requests.count }
        print("DIFFERENTIAL | \(testCase.name) | \(testCase.sequences.count) clients, \(requests) requests | "
              + "plain answered \(checker.benignAnswered)/\(checker.benignTotal) | violations \(checker.violations.count)"
              + (checker.violations.first.map { " | first: \($0)" } ?? ""))
    }
}
