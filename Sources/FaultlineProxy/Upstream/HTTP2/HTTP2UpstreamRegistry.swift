import FaultlineHTTP2
import FaultlineIO

/// The HTTP/2 upstream connections of one loop. One connection per upstream carries that
/// loop's exchanges as streams; a second one opens only when the first has no room (the
/// peer's SETTINGS_MAX_CONCURRENT_STREAMS streams open and as many again waiting), or is
/// going away. Streams beyond the peer's limit wait on their connection, in order, for a
/// slot; their exchange's own deadlines bound the wait.
///
/// A connection without streams closes after the upstream's idle timeout; a reload that
/// drops its upstream (or changes its TLS settings) and the process drain retire it
/// gracefully: no new streams, and it closes once the ones it carries have ended.
final class HTTP2UpstreamRegistry {
    /// What a new connection needs besides its key.
    struct Options {
        /// The session's settings (from the `http2` block).
        let settings: HTTP2Settings
        /// The upstream's idle timeout.
        let idleMilliseconds: Int
        /// `h2` over TLS (ALPN must select h2), rather than `h2c`.
        let requiresALPN: Bool
    }

    private var connections: [HTTP2UpstreamConnection] = []
    /// Options by connection, to open a sibling when one goes away with streams waiting.
    private var optionsByKey: [ObjectIdentifier: Options] = [:]

    /// A connection to `key` with room for one more stream, opened on `loop` if none has;
    /// `isNew` when it was opened for this request.
    func connection(for key: UpstreamPool.Key, options: Options, loop: EventLoop,
                    state: ProxyServerState) throws(UpstreamFailure) -> (connection: HTTP2UpstreamConnection, isNew: Bool) {
        if let existing = connections.first(where: { $0.key.matches(key.address, key.security) && $0.hasRoom }) {
            return (existing, false)
        }
        let connection = try HTTP2UpstreamConnection(key: key, loop: loop, settings: options.settings, state: state,
                                                     registry: self, idleMilliseconds: options.idleMilliseconds,
                                                     requiresALPN: options.requiresALPN)
        connections.append(connection)
        optionsByKey[ObjectIdentifier(connection)] = options
        return (connection, true)
    }

    /// Moves the streams still waiting on `connection` (it stopped taking new ones) to
    /// another connection to the same upstream; they have sent nothing yet.
    func rehome(waitingOf connection: HTTP2UpstreamConnection) {
        let moving = connection.waiting
        connection.waiting = []
        guard !moving.isEmpty, let options = optionsByKey[ObjectIdentifier(connection)] else { return }
        for stream in moving {
            do {
                let target = try self.connection(for: connection.key, options: options, loop: connection.socket.loop,
                                                 state: connection.state)
                target.connection.attach(stream)
            } catch {
                stream.end()?.upstream(.http2(stream), reported: .failed(error))
            }
        }
    }

    /// Forgets a connection that closed.
    func remove(_ connection: HTTP2UpstreamConnection) {
        connections.removeAll { $0 === connection }
        optionsByKey[ObjectIdentifier(connection)] = nil
    }

    /// A new configuration took over: connections to upstreams it no longer has (or whose
    /// TLS settings it changed) are retired; new exchanges open connections of their own.
    func retainOnly(_ keys: [UpstreamPool.Key]) {
        for connection in connections where !keys.contains(where: { $0.matches(connection.key.address, connection.key.security) }) {
            connection.retire()
        }
    }

    /// Closes connections that carried no stream for their idle timeout.
    func closeIdle(now: UInt64) {
        for connection in connections {
            guard let since = connection.idleSince,
                  now >= since &+ UInt64(max(0, connection.idleMilliseconds)) &* 1_000_000 else { continue }
            connection.finish()
        }
    }

    /// The process drains: every connection is retired.
    func retireAll() {
        for connection in connections { connection.retire() }
    }
}
