import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Downloads a body and reports progress (0...1) as bytes arrive, through the data delegate:
/// the way an app drives a progress bar.
final class ProgressDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Unchecked: the delegate methods run on the session's serial delegate queue, and the
    // continuation is set before the task starts.
    private let onProgress: @Sendable (Double) -> Void
    private var received = Data()
    private var expected: Int64 = -1
    private var continuation: CheckedContinuation<Data, any Error>?

    private init(onProgress: @escaping @Sendable (Double) -> Void) {
        self.onProgress = onProgress
    }

    /// Downloads `url` with a session built from `configuration`.
    static func run(_ url: URL, configuration: URLSessionConfiguration,
                    onProgress: @escaping @Sendable (Double) -> Void) async throws -> Data {
        let download = ProgressDownload(onProgress: onProgress)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: url)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.addOperation {
                    download.continuation = continuation
                    task.resume()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        expected = response.expectedContentLength
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received.append(data)
        if expected > 0 { onProgress(min(1, Double(received.count) / Double(expected))) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume(returning: received)
        }
        continuation = nil
    }
}

/// Progress values with the time each arrived, recorded from the delegate queue.
final class ProgressLog: @unchecked Sendable {
    // Unchecked: every access holds the lock.
    private let lock = NSLock()
    private var entries: [(value: Double, at: ContinuousClock.Instant)] = []

    func record(_ value: Double) {
        lock.withLock { entries.append((value, .now)) }
    }

    var values: [Double] { lock.withLock { entries.map(\.value) } }
    /// From the first report to the last.
    var span: Duration { lock.withLock { (entries.last?.at ?? .now) - (entries.first?.at ?? .now) } }
}

@Suite(.timeLimit(.minutes(3)))
struct ThrottledDownloadTests {
    @Test func progressArrivesIncrementallyUnderAThrottle() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("throttled download") { session in
            // 192 kbit/s = 24,000 bytes/s: 48,000 bytes take about 2 s.
            try await session.add(.pathPrefix("/bytes/").named("download").fault(.throttle(kbps: 192)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            configuration.timeoutIntervalForResource = 30
            session.configure(configuration)
            let log = ProgressLog()

            let started = ContinuousClock.now
            let body = try await ProgressDownload.run(faultline.proxyURL.appending(path: "bytes/48000"),
                                                      configuration: configuration) { log.record($0) }
            let elapsed = ContinuousClock.now - started

            #expect(body.count == 48_000)
            #expect(body.prefix(300).elementsEqual((0..<300).map { UInt8($0 % 251) }))
            let values = log.values
            #expect(Set(values).count >= 5, "progress: \(values)")
            #expect(values == values.sorted(), "progress went backwards: \(values)")
            #expect(values.last == 1)
            #expect(log.span >= .seconds(1), "all progress within \(log.span)")
            #expect(elapsed >= .milliseconds(1500), "48,000 bytes at 24,000 B/s took \(elapsed)")
            #expect(try await session.waitForRequests(1, path: "/bytes/48000").first?.faults == ["download/throttle"])
        }
    }
}
