import Foundation
import Testing
import FaultlineTestSupport

/// Hangs, delays and throttles are timers on the event loop: on a single worker, other
/// exchanges are served at full speed while they are in progress.
@Suite(.timeLimit(.minutes(1)))
struct FaultNonBlockingTests {
    @Test func hangingRouteDoesNotBlockANormalRouteOnOneWorker() async throws {
        let stack = try await FaultStack.start(routes: [
            .init(name: "hung", match: #"{"path": "/json"}"#, faults: #"[{"hang": {}}]"#),
            .init(name: "slow", match: #"{"path": "/users/1"}"#, faults: #"[{"delay": 2000}]"#),
            .init(name: "trickle", match: #"{"path": "/bytes/1000000"}"#, faults: #"[{"throttle": {"down_bytes_per_second": 100000}}]"#),
            .init(name: "plain"),
        ])
        defer { stack.stop() }
        let stillHanging = FaultCounter()
        // Four curl clients and one URLSession client hang for 3 s; one waits on a 2 s
        // delay, one trickles at 100 KB/s (cut off by curl after 3 s).
        let hung = Task { () -> [Int32] in
            try await withThrowingTaskGroup(of: Int32.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        stillHanging.add(1)
                        defer { stillHanging.add(-1) }
                        return try await FaultCurl.get(stack.url("/json"), maxTime: 3).exitCode
                    }
                }
                group.addTask {
                    stillHanging.add(1)
                    defer { stillHanging.add(-1) }
                    let result = try await FaultSession.get(stack.url("/json"), timeout: 3)
                    return result.outcome == .error(.timedOut) ? 28 : -1
                }
                group.addTask { try await FaultCurl.get(stack.url("/users/1"), maxTime: 5).exitCode == 0 ? 0 : -2 }
                group.addTask { try await FaultCurl.get(stack.url("/bytes/1000000"), maxTime: 3).exitCode }
                var codes: [Int32] = []
                for try await code in group { codes.append(code) }
                return codes
            }
        }
        // Wait until every hanging client has started.
        try await Deadline.poll("the hanging clients to start", timeout: .seconds(5), interval: .milliseconds(5)) {
            stillHanging.value == 5 ? () : nil
        }
        try await Task.sleep(for: .milliseconds(200))  // let their requests reach the proxy
        var latencies: [Double] = []
        var bigTransfers: [Double] = []
        // Normal traffic for as long as the hangs last.
        while stillHanging.value > 0 {
            let rows = try await FaultCurl.sequence((1...10).map { stack.url("/64?n=\($0)") }, maxTime: 10)
            #expect(rows.allSatisfy { $0.code == 200 && $0.fault.isEmpty }, "\(rows)")
            latencies += rows.map(\.firstByte)
            if bigTransfers.count < 3 {
                let big = try await FaultCurl.get(stack.url("/bytes/500000"), maxTime: 5)
                #expect(big.exitCode == 0 && big.sizeDownload == 500_000, "\(big)")
                bigTransfers.append(big.timeTotal)
            }
        }
        let codes = try await hung.value
        print("FAULT-NONBLOCKING normal route during hangs: \(FaultStatistics.summary(latencies)); 500 KB transfers \(bigTransfers) s; hung clients \(codes)")
        #expect(codes.filter { $0 == 28 }.count == 6, "4 curl + 1 URLSession hang and the throttled curl should time out: \(codes)")
        #expect(codes.contains(0), "the delayed request should complete: \(codes)")
        #expect(latencies.count >= 20, "only \(latencies.count) normal requests during 3 s of hangs")
        #expect(FaultStatistics.percentile(latencies, 99) < 0.1, "normal route: \(FaultStatistics.summary(latencies))")
        #expect(bigTransfers.allSatisfy { $0 < 1.0 }, "500 KB transfers took \(bigTransfers) s")
    }
}
