import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Holds the access token and refreshes it at most once per expiry: every request rejected
/// with the same token waits for one shared refresh instead of starting its own.
actor TokenStore {
    private(set) var token: String
    private var refreshing: Task<String, any Error>?
    private let refresh: @Sendable () async throws -> String

    init(token: String, refresh: @escaping @Sendable () async throws -> String) {
        self.token = token
        self.refresh = refresh
    }

    /// A token to retry with after `rejected` was refused: the one a refresh already brought,
    /// the one a refresh in progress will bring, or a new refresh's.
    func token(replacing rejected: String) async throws -> String {
        if token != rejected { return token }
        if let refreshing { return try await refreshing.value }
        let task = Task { try await refresh() }
        refreshing = task
        defer { refreshing = nil }
        token = try await task.value
        return token
    }
}

/// A client whose requests carry a bearer token; a 401 gets one refresh and one retry.
struct AuthorizedClient: Sendable {
    let baseURL: URL
    let session: URLSession
    let tokens: TokenStore

    struct Refused: Error {
        let status: Int
    }

    func user(id: Int) async throws -> User {
        let token = await tokens.token
        var (data, status) = try await get("users/\(id)", token: token)
        if status == 401 {
            (data, status) = try await get("users/\(id)", token: try await tokens.token(replacing: token))
        }
        guard status == 200 else { throw Refused(status: status) }
        return try JSONDecoder().decode(User.self, from: data)
    }

    private func get(_ path: String, token: String) async throws -> (Data, Int) {
        var request = URLRequest(url: baseURL.appending(path: path))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await session.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    /// The refresh call: `POST /token` answers `{"token": "..."}`.
    static func refresh(baseURL: URL, session: URLSession) async throws -> String {
        struct Answer: Decodable { let token: String }
        var request = URLRequest(url: baseURL.appending(path: "token"))
        request.httpMethod = "POST"
        let (data, response) = try await session.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else { throw URLError(.userAuthenticationRequired) }
        return try JSONDecoder().decode(Answer.self, from: data).token
    }
}

@Suite(.timeLimit(.minutes(3)))
struct TokenRefreshTests {
    @Test func concurrent401sShareOneRefresh() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("401 once, one refresh") { session in
            let ids = [4, 5, 6]
            // Each user's first request is refused, whatever order the requests arrive in.
            for id in ids {
                try await session.add(.path("/users/\(id)").fault(.status(401).firstN(1)))
            }
            // A slow token endpoint: all three requests are refused before the new token comes.
            try await session.add(.path("/token").methods("POST").fault(.delay(ms: 1000)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let urlSession = URLSession(configuration: configuration)
            let baseURL = faultline.proxyURL
            let tokens = TokenStore(token: "expired") {
                try await AuthorizedClient.refresh(baseURL: baseURL, session: urlSession)
            }
            let client = AuthorizedClient(baseURL: baseURL, session: urlSession, tokens: tokens)

            let names = try await withThrowingTaskGroup(of: User.self) { group in
                for id in ids {
                    group.addTask { try await client.user(id: id) }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.id] = $1.name }
            }

            #expect(names == [4: "Edsger Dijkstra", 5: "Barbara Liskov", 6: "Donald Knuth"])
            #expect(await tokens.token.hasPrefix("t-"))
            // Six user requests and one refresh, each journaled as it ends.
            #expect(try await session.waitForRequests(7).count == 7)
            #expect(try await session.count(path: "/token") == 1)
            #expect(try await session.count(status: 401) == 3)
            for id in ids {
                #expect(try await session.count(path: "/users/\(id)") == 2, "user \(id)")
            }
        }
    }
}
