import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A screen that loads a user: its phase decides what is drawn, so the spinner is shown
/// exactly while a load is in progress and cannot be left spinning once `load` returns.
actor UserScreen {
    enum Phase: Equatable {
        case idle
        case loading
        case loaded(name: String)
        case failed(message: String)
    }

    private(set) var phase = Phase.idle
    private let client: UserClient

    init(client: UserClient) {
        self.client = client
    }

    /// Whether the loading spinner is visible.
    var showsSpinner: Bool { phase == .loading }

    func load(id: Int) async {
        phase = .loading
        do {
            phase = .loaded(name: try await client.user(id: id).name)
        } catch let error as URLError where error.code == .timedOut {
            phase = .failed(message: "The server is not answering. Try again later.")
        } catch {
            phase = .failed(message: "Could not load the user: \(error)")
        }
    }
}

@Suite(.timeLimit(.minutes(3)))
struct PacketLossTests {
    @Test func totalLossTimesOutAndStopsTheSpinner() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("100 % loss") { session in
            try await session.add(.path("/users/2").fault(.profile(.totalLoss)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 1
            session.configure(configuration)
            let screen = UserScreen(client: UserClient(baseURL: faultline.proxyURL, session: URLSession(configuration: configuration)))

            let started = ContinuousClock.now
            await screen.load(id: 2)
            let elapsed = ContinuousClock.now - started

            #expect(await screen.phase == .failed(message: "The server is not answering. Try again later."))
            #expect(await !screen.showsSpinner)
            // The client's own timeout ended the wait, not the proxy.
            #expect(elapsed >= .milliseconds(900))
            #expect(elapsed < .seconds(30))
            // The proxy saw the request and answered nothing; it journals the exchange once it
            // notices the client gave up.
            let entries = try await session.waitForRequests(1, path: "/users/2", timeout: .seconds(10))
            #expect(entries.count == 1)
            #expect(entries.first?.status == nil)
        }
    }
}
