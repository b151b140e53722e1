import Dispatch
import FaultlineHTTP
import FaultlineIO
#if canImport(Glibc)
import Glibc
#endif

/// A loop's lookups of forward-proxy hosts. IP literals are parsed on the spot; a name is
/// resolved by the system resolver (getaddrinfo, which blocks) on a thread of a shared queue,
/// never on the loop, and the answer comes back to the loop, which keeps it for a minute (a
/// failure for five seconds, so that a client naming hosts that do not exist cannot start
/// lookups without end). Requests for a name already being looked up wait for that lookup.
/// Loop-confined: every method runs on the loop thread.
final class ForwardResolver {
    /// An answer kept for a while.
    private struct Entry {
        let answer: Result<SocketAddress, IOError>
        let expires: UInt64
    }

    typealias Completion = (Result<SocketAddress, IOError>) -> Void

    private let loop: EventLoop
    private var entries: [String: Entry] = [:]
    /// Names being looked up, with whoever waits for each.
    private var waiting: [String: [Completion]] = [:]
    private static let capacity = 4096
    /// Names looked up at once per loop; past it a request fails at once (502) rather than
    /// queueing behind a slow resolver.
    static let maxLookupsInFlight = 64
    private static let ttlNanoseconds: UInt64 = 60_000_000_000
    private static let failureTTLNanoseconds: UInt64 = 5_000_000_000
    /// Lookups block their thread; the queue's threads are the system's, shared by every loop.
    private static let queue = DispatchQueue(label: "faultline.forward.dns", attributes: .concurrent)

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// The address of `target` when it is known now (a literal, or a kept answer); nil when
    /// a lookup is needed.
    func known(_ target: ForwardTarget) -> Result<SocketAddress, IOError>? {
        if let literal = SocketAddress(ip: target.host, port: target.port) { return .success(literal) }
        guard let entry = entries[target.description], entry.expires > loop.now else { return nil }
        return entry.answer
    }

    /// The address of `target`: returned when known now, else nil and `completion` runs on
    /// the loop once the lookup ends (never before this call returns).
    func resolve(_ target: ForwardTarget, completion: @escaping Completion) -> Result<SocketAddress, IOError>? {
        if let answer = known(target) { return answer }
        let key = target.description
        if waiting[key] != nil {
            waiting[key]?.append(completion)
            return nil
        }
        guard waiting.count < Self.maxLookupsInFlight else {
            return .failure(IOError("resolve \(target.host)", code: EAGAIN,
                                    detail: "\(Self.maxLookupsInFlight) lookups are already in progress on this loop"))
        }
        waiting[key] = [completion]
        let reference = ForwardResolverReference(self)
        let (host, port, loop) = (target.host, target.port, loop)
        Self.queue.async {
            let answer: Result<SocketAddress, IOError>
            do throws(IOError) {
                answer = .success(try SocketAddress.resolve(host: host, port: port))
            } catch {
                answer = .failure(error)
            }
            loop.execute { reference.resolver?.finish(key, answer) }
        }
        return nil
    }

    private func finish(_ key: String, _ answer: Result<SocketAddress, IOError>) {
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        let ttl = if case .success = answer { Self.ttlNanoseconds } else { Self.failureTTLNanoseconds }
        entries[key] = Entry(answer: answer, expires: loop.now &+ ttl)
        let completions = waiting.removeValue(forKey: key) ?? []
        for completion in completions { completion(answer) }
    }
}

/// Carries a resolver to its lookup's thread and back to the loop; the resolver itself is
/// only used on the loop, and is gone if the loop's context was.
private final class ForwardResolverReference: @unchecked Sendable {
    weak var resolver: ForwardResolver?

    init(_ resolver: ForwardResolver) {
        self.resolver = resolver
    }
}
