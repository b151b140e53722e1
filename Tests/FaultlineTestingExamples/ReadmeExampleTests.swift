import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// One Faultline (proxy and demo origin) for every test in this process, started on first
/// use from `FAULTLINE_BIN` (or `faultline` on `PATH`). Each test works in its own session,
/// so tests run in parallel without seeing each other's faults, counters or journal.
enum SharedFaultline {
    static let launched = Task { try await Faultline.launch() }
}

/// The app's client: retries a 502, 503 or 504 with exponential backoff (100 ms, 200 ms, …).
struct RetryingClient {
    let baseURL: URL
    let session: URLSession
    var maxAttempts = 4
    var firstBackoff: Duration = .milliseconds(100)

    /// The server's answer was not a success, and retrying did not (or could not) help.
    struct StatusError: Error {
        let status: Int
    }

    func get(_ path: String) async throws -> Data {
        var backoff = firstBackoff
        var attempt = 1
        while true {
            let (data, response) = try await session.data(from: baseURL.appending(path: path))
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if (200..<300).contains(status) { return data }
            guard [502, 503, 504].contains(status), attempt < maxAttempts else { throw StatusError(status: status) }
            try await Task.sleep(for: backoff)
            backoff *= 2
            attempt += 1
        }
    }
}

@Test(.timeLimit(.minutes(3)))
func retriesTwiceWithExponentialBackoff() async throws {
    let faultline = try await SharedFaultline.launched.value
    try await faultline.session("503 twice, then success") { session in
        // The 1st and 2nd requests to /json get 503, the 3rd reaches the demo origin.
        try await session.add(.path("/json").fault(.status(503).sequence([503, 503, .pass])))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        session.configure(configuration)
        let client = RetryingClient(baseURL: faultline.proxyURL, session: URLSession(configuration: configuration))

        let data = try await client.get("/json")

        #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
        // The proxy journals an exchange as it ends: wait for the last one, then ask.
        let attempts = try await session.waitForRequests(3, path: "/json")
        #expect(attempts.map(\.status) == [503, 503, 200])
        #expect(attempts.map(\.retry) == [0, 1, 2])   // the same GET /json, tried three times
        #expect(try await session.count(path: "/json") == 3)
        let gaps = try await session.gaps(path: "/json")
        #expect(gaps.count == 2)
        #expect(gaps[0] >= .milliseconds(100))
        #expect(gaps[1] >= .milliseconds(200))
    }
}
