import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks JSON to the admin API: bearer token, `Content-Type` on every change (the API
/// refuses changes without it), refusals turned into `FaultlineError`.
struct AdminClient: Sendable {
    let base: URL
    let token: String?
    private let urlSession: URLSession

    init(base: URL, token: String?) {
        self.base = base
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        // The admin API is on loopback: never through a proxy the environment names.
        configuration.connectionProxyDictionary = [:]
        configuration.timeoutIntervalForRequest = 30
        urlSession = URLSession(configuration: configuration)
    }

    /// The answer of one admin request.
    struct Answer: Sendable {
        let status: Int
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request and returns the answer, whatever its status.
    func send(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: JSONValue? = nil) async throws -> Answer {
        let url = self.url(path, query: query)
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if method != "GET" && method != "DELETE" || body != nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let body { request.httpBody = Data(body.text.utf8) }
        do {
            let (data, response) = try await urlSession.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw FaultlineError.unexpectedAnswer(status: 0, body: "not an HTTP response")
            }
            return Answer(status: http.statusCode, body: data)
        } catch let error as FaultlineError {
            throw error
        } catch {
            throw FaultlineError.adminUnreachable(url: url, reason: Self.reason(error))
        }
    }

    /// Sends one request; a status outside 200...299 throws `refused` (or
    /// `unexpectedAnswer` when the body is not the API's JSON refusal).
    @discardableResult
    func expectSuccess(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: JSONValue? = nil) async throws -> Answer {
        let answer = try await send(method, path, query: query, body: body)
        guard (200...299).contains(answer.status) else { throw Self.refusal(answer) }
        return answer
    }

    /// Decodes a successful answer.
    func decode<T: Decodable>(_ type: T.Type, _ answer: Answer) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: answer.body)
        } catch {
            throw FaultlineError.unexpectedAnswer(status: answer.status, body: answer.text)
        }
    }

    /// The error for a refused request: the API's `{"error", "field"}` when it sent one.
    static func refusal(_ answer: Answer) -> FaultlineError {
        struct Refusal: Decodable {
            let error: String
            let field: String?
        }
        guard let refusal = try? JSONDecoder().decode(Refusal.self, from: answer.body) else {
            return .unexpectedAnswer(status: answer.status, body: answer.text)
        }
        return .refused(status: answer.status, message: refusal.error, field: refusal.field)
    }

    /// A transport error in words, with the URLError code (the full NSError dump buries it).
    private static func reason(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return String(describing: error) }
        return "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
    }

    /// `base/segment/segment?query`, each segment percent-encoded.
    func url(_ path: [String], query: [URLQueryItem] = []) -> URL {
        var url = base
        for segment in path { url.appendPathComponent(segment) }
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems = query
        return components.url ?? url
    }
}
