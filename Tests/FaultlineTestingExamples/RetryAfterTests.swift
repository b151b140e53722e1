import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A client that honours `Retry-After` on 429 and 503 (RFC 9110 section 10.2.3): it waits as
/// long as the server asks (seconds or an HTTP date), within a cap, and retries once.
struct PoliteClient: Sendable {
    let baseURL: URL
    let session: URLSession
    /// The longest wait the app accepts before giving up instead.
    var longestWait: Duration = .seconds(30)

    /// The server asked to come back later (after `retryAfter`, when it said), and the
    /// client would not or could not wait.
    struct RateLimited: Error {
        let retryAfter: Duration?
    }

    /// Any other answer that is not a success.
    struct StatusError: Error {
        let status: Int
    }

    func get(_ path: String) async throws -> Data {
        let url = baseURL.appending(path: path)
        let (data, response) = try await session.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if (200..<300).contains(status) { return data }
        guard [429, 503].contains(status) else { throw StatusError(status: status) }
        let wait = Self.retryAfter((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After"))
        guard let wait, wait <= longestWait else { throw RateLimited(retryAfter: wait) }
        try await Task.sleep(for: wait)
        let (retried, retriedResponse) = try await session.data(from: url)
        let retriedStatus = (retriedResponse as? HTTPURLResponse)?.statusCode ?? 0
        if (200..<300).contains(retriedStatus) { return retried }
        throw [429, 503].contains(retriedStatus) ? RateLimited(retryAfter: nil) : StatusError(status: retriedStatus)
    }

    /// `Retry-After` as a wait: delay-seconds, or an HTTP date from now.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = format.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }
}

@Suite(.timeLimit(.minutes(3)))
struct RetryAfterTests {
    @Test func waitsAsLongAsRetryAfterAsks() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("429 with Retry-After: 1") { session in
            try await session.add(.path("/users/3").fault(.status(429, retryAfter: 1).firstN(1)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let client = PoliteClient(baseURL: faultline.proxyURL, session: URLSession(configuration: configuration))

            let data = try await client.get("/users/3")

            #expect(String(decoding: data, as: UTF8.self).contains("Grace Hopper"))
            let statuses = try await session.waitForRequests(2, path: "/users/3").map(\.status)
            #expect(statuses == [429, 200])
            let gaps = try await session.gaps(path: "/users/3")
            #expect(gaps.count == 1)
            #expect(gaps.first.map { $0 >= .seconds(1) } == true, "retried after \(gaps)")
        }
    }

    @Test func readsBothFormsOfRetryAfter() {
        #expect(PoliteClient.retryAfter("1") == .seconds(1))
        #expect(PoliteClient.retryAfter(" 120 ") == .seconds(120))
        #expect(PoliteClient.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == .zero)
        #expect(PoliteClient.retryAfter("soon") == nil)
        #expect(PoliteClient.retryAfter(nil) == nil)
    }
}
