/// A fixed set of event loops, each running on its own thread.
public final class EventLoopGroup: Sendable {
    /// The loops, index-aligned with `EventLoop.index`.
    public let loops: [EventLoop]

    /// Creates `count` loops and starts a thread for each.
    public init(count: Int) throws(IOError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(index: index))
        }
        self.loops = loops
        for loop in loops {
            try EventLoopThread.start { loop.run() }
        }
    }

    /// Runs `task` on every loop.
    public func forEach(_ task: @escaping @Sendable (EventLoop) -> Void) {
        for loop in loops {
            loop.execute { task(loop) }
        }
    }

    /// Stops every loop.
    public func stop() {
        for loop in loops { loop.stop() }
    }
}
