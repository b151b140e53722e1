import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A cache of revalidated responses: the client remembers each body with its `ETag`, asks
/// with `If-None-Match`, and serves the remembered body on a 304. It does its own conditional
/// requests rather than relying on `URLCache`, whose revalidation differs between platforms.
actor RevalidatingClient {
    enum Source: Equatable {
        case network
        case cache
    }

    private let session: URLSession
    private var stored: [URL: (tag: String, body: Data)] = [:]

    /// `configuration` loses its `URLCache`, so every answer comes from the server.
    init(configuration: URLSessionConfiguration) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    func get(_ url: URL) async throws -> (body: Data, source: Source) {
        var request = URLRequest(url: url)
        let cached = stored[url]
        if let cached { request.setValue(cached.tag, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        switch http.statusCode {
        case 304:
            guard let cached else { throw URLError(.badServerResponse) }
            return (cached.body, .cache)
        case 200..<300:
            if let tag = http.value(forHTTPHeaderField: "ETag") { stored[url] = (tag, data) }
            return (data, .network)
        default:
            throw URLError(.badServerResponse)
        }
    }
}

@Suite(.timeLimit(.minutes(3)))
struct ETagCacheTests {
    @Test func secondRequestIsA304ServedFromTheCache() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("ETag and 304") { session in
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let client = RevalidatingClient(configuration: configuration)
            let url = faultline.proxyURL.appending(path: "json")

            let first = try await client.get(url)
            let second = try await client.get(url)

            #expect(first.source == .network)
            #expect(second.source == .cache)
            #expect(second.body == first.body)
            #expect(try JSONSerialization.jsonObject(with: second.body) is [String: Any])
            // The origin answered the revalidation through the proxy with a bodiless 304.
            let statuses = try await session.waitForRequests(2, path: "/json").map(\.status)
            #expect(statuses == [200, 304])
        }
    }
}
