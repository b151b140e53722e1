import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// What `launch` started: the proxy, the demo origin when there was no upstream, and the
/// temporary directory holding the config and the log. `stop()` ends them exactly once.
final class LaunchedProcesses: Sendable {
    private enum Lifecycle {
        case running(proxy: ChildProcess?, origin: ChildProcess?)
        case stopped
    }

    private let lifecycle: Locked<Lifecycle>
    /// The temporary directory, removed on stop.
    let directory: URL

    init(directory: URL) {
        self.directory = directory
        lifecycle = Locked(.running(proxy: nil, origin: nil))
        ChildRegistry.add(directory: directory)
    }

    /// Records a started child so that `stop()` ends it; a child started after `stop()`
    /// is ended at once.
    func adopt(proxy: ChildProcess? = nil, origin: ChildProcess? = nil) {
        let adopted = lifecycle.withLock { state -> Bool in
            guard case .running(let oldProxy, let oldOrigin) = state else { return false }
            state = .running(proxy: proxy ?? oldProxy, origin: origin ?? oldOrigin)
            return true
        }
        if !adopted {
            proxy?.terminate()
            origin?.terminate()
        }
    }

    /// The proxy's pid (nil before it started or after stop).
    var proxyPID: Int32? {
        lifecycle.withLock { state in
            if case .running(let proxy?, _) = state { return proxy.pid }
            return nil
        }
    }

    /// The demo origin's pid, when one runs.
    var originPID: Int32? {
        lifecycle.withLock { state in
            if case .running(_, let origin?) = state { return origin.pid }
            return nil
        }
    }

    /// Ends the proxy and the origin (both signalled at once, then waited for); removes the
    /// directory.
    func stop() {
        let children = lifecycle.withLock { state -> (ChildProcess?, ChildProcess?)? in
            guard case .running(let proxy, let origin) = state else { return nil }
            state = .stopped
            return (proxy, origin)
        }
        guard let (proxy, origin) = children else { return }
        proxy?.requestTermination()
        origin?.requestTermination()
        proxy?.terminate()
        origin?.terminate()
        try? FileManager.default.removeItem(at: directory)
        ChildRegistry.forget(directory: directory)
    }
}
#endif
