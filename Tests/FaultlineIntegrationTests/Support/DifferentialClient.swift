import Foundation
import Synchronization
import FaultlineTestSupport

/// Plays one `DifferentialSequence` against the proxy over a raw socket and records what
/// came back. Blocking: call it inside `Blocking.run`.
enum DifferentialClient {
    /// Runs `sequence` against 127.0.0.1:`port`.
    static func run(_ sequence: DifferentialSequence, port: Int, stall: Duration) -> DifferentialTranscript {
        var transcript = DifferentialTranscript()
        let client: RawClient
        do {
            client = try RawClient(port: port, readTimeout: .milliseconds(100))
        } catch {
            transcript.end = .reset
            transcript.sendError = "\(error)"
            return transcript
        }
        defer { client.close() }
        if sequence.pipelined {
            runPipelined(sequence, client: client, stall: stall, into: &transcript)
        } else {
            runOneByOne(sequence, client: client, stall: stall, into: &transcript)
        }
        return transcript
    }

    private static func runOneByOne(_ sequence: DifferentialSequence, client: RawClient, stall: Duration,
                                    into transcript: inout DifferentialTranscript) {
        let methods = sequence.requests.map(\.method)
        for (index, request) in sequence.requests.enumerated() {
            let responseStart = transcript.received.count
            do {
                try write(request, client: client)
            } catch {
                transcript.sendError = "\(error)"
                transcript.end = drain(client, into: &transcript, stall: stall)
                return
            }
            if request.abortAfter != nil {
                transcript.end = .closedByClient
                return
            }
            transcript.sentComplete = index + 1
            let wanted = index + 1
            let end = read(client, into: &transcript, stall: stall) { received in
                if let limit = request.closeAfterResponseBytes, received.count - responseStart >= limit { return true }
                let parsed = StrictHTTPParser.responses(received, methods: Array(methods.prefix(wanted)), closed: false)
                if case .invalid = parsed.tail { return true }
                return parsed.messages.count >= wanted
            }
            if let end {
                transcript.end = end
                return
            }
            if request.closeAfterResponseBytes != nil {
                transcript.end = .closedByClient
                return
            }
            let parsed = StrictHTTPParser.responses(transcript.received, methods: Array(methods.prefix(wanted)), closed: false)
            if case .invalid = parsed.tail {
                transcript.end = .garbage
                return
            }
            if parsed.messages.last?.connectionLists("close") == true {
                transcript.end = waitForClose(client, into: &transcript, stall: stall)
                return
            }
        }
        transcript.end = finish(client, into: &transcript)
    }

    private static func runPipelined(_ sequence: DifferentialSequence, client: RawClient, stall: Duration,
                                     into transcript: inout DifferentialTranscript) {
        let progress = Mutex((sent: 0, error: String?.none))
        let sender = DispatchSemaphore(value: 0)
        let requests = sequence.requests
        Thread {
            for request in requests {
                do {
                    try write(request, client: client)
                } catch {
                    progress.withLock { $0.error = "\(error)" }
                    break
                }
                if request.abortAfter != nil { break }
                progress.withLock { $0.sent += 1 }
            }
            sender.signal()
        }.start()
        let methods = requests.map(\.method)
        let wanted = sequence.answerLimit ?? requests.count
        let end = read(client, into: &transcript, stall: stall) { received in
            let parsed = StrictHTTPParser.responses(received, methods: methods, closed: false)
            if case .invalid = parsed.tail { return true }
            return parsed.messages.count >= wanted || parsed.messages.last?.connectionLists("close") == true
        }
        sender.wait()
        let state = progress.withLock { $0 }
        transcript.sentComplete = state.sent
        transcript.sendError = state.error
        if let end {
            transcript.end = end
            return
        }
        let parsed = StrictHTTPParser.responses(transcript.received, methods: methods, closed: false)
        if case .invalid = parsed.tail {
            transcript.end = .garbage
        } else if parsed.messages.last?.connectionLists("close") == true || sequence.answerLimit != nil {
            transcript.end = waitForClose(client, into: &transcript, stall: stall)
        } else {
            transcript.end = finish(client, into: &transcript)
        }
    }

    /// Writes `request` in its planned pieces, stopping at `abortAfter`.
    private static func write(_ request: DifferentialRequest, client: RawClient) throws {
        let limit = request.abortAfter ?? request.wire.count
        var cuts = Set(request.splits.filter { $0 > 0 && $0 < limit })
        cuts.insert(limit)
        var start = 0
        for cut in cuts.sorted() {
            try client.send(Array(request.wire[start..<cut]))
            start = cut
        }
    }

    /// Reads until `done` holds (nil), or returns how the connection ended first.
    private static func read(_ client: RawClient, into transcript: inout DifferentialTranscript, stall: Duration,
                             until done: ([UInt8]) -> Bool) -> DifferentialTranscript.End? {
        var lastProgress = ContinuousClock.now
        while !done(transcript.received) {
            switch client.readSome() {
            case .bytes(let bytes):
                transcript.received += bytes
                lastProgress = .now
            case .closed:
                return .closedByPeer
            case .reset:
                return .reset
            case .timedOut:
                if ContinuousClock.now - lastProgress > stall { return .stalled }
            }
        }
        return nil
    }

    /// After a write failed: whatever the proxy still sends, until it closes.
    private static func drain(_ client: RawClient, into transcript: inout DifferentialTranscript,
                              stall: Duration) -> DifferentialTranscript.End {
        read(client, into: &transcript, stall: stall) { _ in false } ?? .reset
    }

    /// After a response that announced `Connection: close`: the close must follow.
    private static func waitForClose(_ client: RawClient, into transcript: inout DifferentialTranscript,
                                     stall: Duration) -> DifferentialTranscript.End {
        read(client, into: &transcript, stall: stall) { _ in false } ?? .stalled
    }

    /// After every expected response: a short look for bytes nobody asked for.
    private static func finish(_ client: RawClient, into transcript: inout DifferentialTranscript) -> DifferentialTranscript.End {
        switch client.readSome() {
        case .bytes(let bytes):
            transcript.received += bytes
            return .complete
        case .closed:
            return .closedByPeer
        case .reset:
            return .reset
        case .timedOut:
            return .complete
        }
    }
}
