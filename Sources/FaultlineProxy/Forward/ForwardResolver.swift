import FaultlineHTTP
import FaultlineIO

/// A loop's cache of resolved forward-proxy hosts, bounded in size and age. IP literals are
/// parsed without a lookup; names are resolved by the system resolver on the loop thread (a
/// lookup blocks the loop: see docs/forward-proxy.md, "Limits"), then reused for `ttl`.
final class ForwardResolver {
    private struct Entry {
        let address: SocketAddress
        let expires: UInt64
    }

    private var entries: [String: Entry] = [:]
    private static let capacity = 4096
    private static let ttlNanoseconds: UInt64 = 60_000_000_000

    /// The address of `target`, or why it has none.
    func resolve(_ target: ForwardTarget, now: UInt64) -> Result<SocketAddress, IOError> {
        if let literal = SocketAddress(ip: target.host, port: target.port) { return .success(literal) }
        let key = target.description
        if let entry = entries[key], entry.expires > now { return .success(entry.address) }
        do {
            let address = try SocketAddress.resolve(host: target.host, port: target.port)
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(address: address, expires: now &+ Self.ttlNanoseconds)
            return .success(address)
        } catch {
            return .failure(error)
        }
    }
}
