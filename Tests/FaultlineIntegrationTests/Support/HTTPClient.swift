import Foundation
import FaultlineTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession (FoundationNetworking on Linux) as an app would use it; one ephemeral
/// session per client, every request bounded by its timeout.
final class HTTPClient: Sendable {
    struct Response: Sendable {
        let status: Int
        let body: Data
        let headers: [String: String]

        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 20
        configuration.httpMaximumConnectionsPerHost = 8
        configuration.connectionProxyDictionary = [:]
        session = URLSession(configuration: configuration)
    }

    func send(_ url: String, method: String = "GET", body: Data? = nil,
              headers: [String: String] = [:], timeout: TimeInterval = 10) async throws -> Response {
        guard let target = URL(string: url) else { throw TestFailure("bad URL \(url)") }
        var request = URLRequest(url: target, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response from \(url)") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Response(status: http.statusCode, body: data, headers: fields)
    }

    deinit { session.invalidateAndCancel() }
}
