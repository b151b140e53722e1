import Foundation
import Testing
import FaultlineTestSupport

/// Injected delays and throttles are accurate at the client, and other traffic on the same
/// event loop keeps flowing while they run.
@Suite(.timeLimit(.minutes(3)))
struct FaultAccuracyTests {
    /// 100 sequential requests through a 200 ms delay land within 200 ± 5 ms at p99 (after
    /// the no-fault baseline's median is subtracted, and beyond the tail that baseline shows),
    /// while a second client keeps fetching another route on the same single event loop with
    /// low latency.
    ///
    /// A stall of the shared 2-core machine (the baseline shows them too) can spoil one run
    /// of 100 requests, so up to three runs are made and one must meet the bar; an
    /// inaccurate proxy fails all three.
    @Test func delayOf200msIsAccurateWhileOtherTrafficFlows() async throws {
        let stack = try await FaultStack.start(routes: [
            .init(name: "delayed", match: #"{"host": "delayed.test"}"#, faults: #"[{"delay": 200}]"#),
            .init(name: "plain"),
        ])
        defer { stack.stop() }
        var attempts: [String] = []
        for _ in 1...3 {
            let run = try await measureDelay(stack)
            attempts.append(run.summary)
            #expect(run.earliest >= 0.195, "a delay came early: \(run.summary)")
            // The other client was served all along, without waiting behind the delays.
            #expect(run.others.count >= 100, "only \(run.others.count) requests on the other route during the delays")
            #expect(FaultStatistics.percentile(run.others, 99) < 0.050, "other route: \(FaultStatistics.summary(run.others))")
            if run.p99Error <= 0.005 { return }
        }
        Issue.record("200 ms delay: p99 error above 5 ms in every run: \(attempts)")
    }

    private struct DelayRun {
        let p99Error: Double
        let earliest: Double
        let others: [Double]
        let summary: String
    }

    private func measureDelay(_ stack: FaultStack) async throws -> DelayRun {
        let urls = (1...100).map { stack.url("/json?i=\($0)") }
        // Warm up, then the baseline: the same requests with no fault.
        _ = try await FaultCurl.sequence(Array(urls.prefix(5)))
        let baseline = try await FaultCurl.sequence(urls).map(\.firstByte)
        let baselineMedian = FaultStatistics.median(baseline)

        // Other traffic: a steady 50 requests/s for as long as the 100 delays take (about
        // 20 s), from ONE curl process: spawning a process per batch would itself jitter the
        // 2-core runner by more than the 5 ms being measured.
        async let others: [Double] = FaultCurl.sequence((1...1000).map { stack.url("/64?other=\($0)") },
                                                        maxTime: 60, extra: ["--rate", "50/s"]).map(\.firstByte)
        let delayedRows = try await FaultCurl.sequence(urls, maxTime: 50, extra: ["-H", "Host: delayed.test"])
        let otherLatencies = try await others

        #expect(delayedRows.allSatisfy { $0.code == 200 && $0.fault == "delayed/delay" },
                "\(delayedRows.filter { $0.code != 200 || $0.fault != "delayed/delay" }.prefix(3))")
        let injected = delayedRows.map { $0.firstByte - baselineMedian }
        let errors = injected.map { abs($0 - 0.200) }
        // The machine's own tail (the baseline's p99 above its median, with no fault at all) is
        // in the delayed requests too: what is left of the p99 error beyond it is the delay's.
        let machineTail = FaultStatistics.percentile(baseline, 99) - baselineMedian
        let delayError = max(0, FaultStatistics.percentile(errors, 99) - machineTail)
        let summary = "baseline \(FaultStatistics.summary(baseline)); injected \(FaultStatistics.summary(injected)); "
            + "p99 error \(FaultStatistics.percentile(errors, 99) * 1000) ms, \(delayError * 1000) ms beyond the baseline's tail; "
            + "other route \(FaultStatistics.summary(otherLatencies))"
        print("FAULT-ACCURACY delay 200 ms: \(summary)")
        return DelayRun(p99Error: delayError, earliest: injected.min() ?? 0,
                        others: otherLatencies, summary: summary)
    }

    /// A 100 KB/s throttle over a 300 KB transfer measures within ±5 %.
    @Test func throttleOf100KBpsIsWithin5Percent() async throws {
        let stack = try await FaultStack.single("throttled", faults: #"{"throttle": {"down_bytes_per_second": 100000}}"#)
        defer { stack.stop() }
        let result = try await Curl.run(["-o", "/dev/null", "-w", "%{size_download} %{time_total} %{time_starttransfer} %{speed_download}",
                                         stack.url("/bytes/300000")], maxTime: 10)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let fields = result.text.split(separator: " ").compactMap { Double($0) }
        try #require(fields.count == 4, "\(result.text)")
        let (size, total, firstByte) = (fields[0], fields[1], fields[2])
        let rate = size / total
        // Also from the first byte on, so connection set-up does not count.
        let bodyRate = size / (total - firstByte)
        print("FAULT-ACCURACY throttle 100000 B/s: \(Int(size)) bytes in \(total) s = \(Int(rate)) B/s (from first byte \(Int(bodyRate)) B/s)")
        #expect(size == 300_000)
        #expect((95_000...105_000).contains(rate), "\(Int(rate)) B/s over \(total) s")
        #expect((95_000...105_000).contains(bodyRate), "\(Int(bodyRate)) B/s from the first byte")
    }
}
