import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite(.timeLimit(.minutes(3)))
struct CancellationTests {
    @Test func cancellingDuringAHangEndsTheTaskPromptly() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("cancel during a hang") { session in
            // No answer, ever: only the client can end this request.
            try await session.add(.path("/users/7").named("user").fault(.hang()))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 60
            session.configure(configuration)
            let client = UserClient(baseURL: faultline.proxyURL, session: URLSession(configuration: configuration))

            let (running, signal) = AsyncStream<Void>.makeStream()
            let load = Task {
                signal.yield()
                return try await client.user(id: 7)
            }
            // Once the task runs, its request is handed to URLSession without suspending;
            // a second more is ample for it to reach the proxy, as a user leaving the
            // screen would take.
            for await _ in running { break }
            try await Task.sleep(for: .seconds(1))
            let cancelled = ContinuousClock.now
            load.cancel()
            let result = await load.result
            let latency = ContinuousClock.now - cancelled

            // Far below the 60 s request timeout, with room for a loaded machine.
            #expect(latency < .seconds(15), "the task ended \(latency) after cancel()")
            #expect(throws: (any Error).self) { try result.get() }
            if case .failure(let error) = result {
                #expect(error is CancellationError || (error as? URLError)?.code == .cancelled, "\(error)")
            }
            // The proxy saw the request, which ended with no status: the client went away.
            let entries = try await session.waitForRequests(1, path: "/users/7", timeout: .seconds(10))
            #expect(entries.count == 1)
            #expect(entries.first?.status == nil)
            #expect(entries.first?.faults == ["user/hang"])
        }
    }
}
