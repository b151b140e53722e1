import Foundation
import FaultlineIO
import FaultlineTestSupport

/// One event loop on its own thread for a test, stopped when the harness is dropped. Tests
/// reach the loop only through `onLoop`, so loop-confined objects stay on the loop's thread.
final class LoopHarness: Sendable {
    let group: EventLoopGroup
    var loop: EventLoop { group.loops[0] }

    init() throws {
        group = try EventLoopGroup(count: 1)
    }

    deinit { group.stop() }

    /// Runs `body` on the loop and returns its result; throws if the loop does not get to it
    /// within `timeout`.
    @discardableResult
    func onLoop<T: Sendable>(timeout: Duration = .seconds(10),
                             _ body: @escaping @Sendable (EventLoop) throws -> T) throws -> T {
        let result = Recorder<Result<T, any Error>>()
        let loop = self.loop
        loop.execute { result.append(Result { try body(loop) }) }
        let outcomes = try result.wait("the loop to run a task", timeout: timeout) { !$0.isEmpty }
        return try outcomes[0].get()
    }
}
