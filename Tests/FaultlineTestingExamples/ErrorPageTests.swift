import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A user of the demo origin's `/users/{id}`.
struct User: Decodable, Equatable, Sendable {
    let id: Int
    let name: String
    let email: String
}

/// Why `UserClient` could not return a user, in words a log or an alert can show.
enum UserClientError: Error, Equatable, CustomStringConvertible {
    /// Not a 2xx: the status and the body's content type (an HTML error page is not a user).
    case unexpectedStatus(Int, contentType: String?)
    /// A 2xx whose body is not JSON.
    case notJSON(contentType: String?)
    /// JSON that is not a user.
    case malformedUser(String)

    var description: String {
        switch self {
        case let .unexpectedStatus(status, contentType):
            "the server answered \(status) (\(contentType ?? "no content type")) where a user was expected"
        case let .notJSON(contentType):
            "the server answered \(contentType ?? "no content type") where JSON was expected"
        case let .malformedUser(reason):
            "the user could not be read: \(reason)"
        }
    }
}

/// The careful way to read JSON: check the status and the content type before decoding, so
/// a proxy's or load balancer's HTML error page becomes a typed error, never a decoding crash.
struct UserClient: Sendable {
    let baseURL: URL
    let session: URLSession

    func user(id: Int) async throws -> User {
        let (data, response) = try await session.data(from: baseURL.appending(path: "users/\(id)"))
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        let contentType = http.value(forHTTPHeaderField: "Content-Type")
        guard (200..<300).contains(http.statusCode) else {
            throw UserClientError.unexpectedStatus(http.statusCode, contentType: contentType)
        }
        guard contentType?.lowercased().hasPrefix("application/json") == true else {
            throw UserClientError.notJSON(contentType: contentType)
        }
        do {
            return try JSONDecoder().decode(User.self, from: data)
        } catch {
            throw UserClientError.malformedUser(String(describing: error))
        }
    }
}

@Suite(.timeLimit(.minutes(3)))
struct ErrorPageTests {
    @Test func htmlErrorPageBecomesATypedError() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("HTML 500 where JSON was expected") { session in
            let page = "<html><body><h1>500 Internal Server Error</h1></body></html>"
            let rule = try await session.add(.path("/users/1").fault(.status(500, body: page, contentType: "text/html")))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let client = UserClient(baseURL: faultline.proxyURL, session: URLSession(configuration: configuration))

            let error = await #expect(throws: UserClientError.self) { try await client.user(id: 1) }
            #expect(error == .unexpectedStatus(500, contentType: "text/html"))
            #expect(error?.description.contains("500 (text/html)") == true)

            // The same client reads the real answer once the fault is gone.
            try await session.remove(rule: rule)
            #expect(try await client.user(id: 1).name == "Ada Lovelace")
            let statuses = try await session.waitForRequests(2, path: "/users/1").map(\.status)
            #expect(statuses == [500, 200])
        }
    }
}
