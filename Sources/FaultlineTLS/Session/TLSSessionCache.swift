private import COpenSSL
import FaultlineSync
import Synchronization

/// The latest resumable session per "host:port", shared by every loop that uses one client
/// context, so a pooled or repeated upstream connection skips the full handshake.
final class TLSSessionCache: Sendable {
    // The pointer is only touched under the mutex or after taking an extra reference.
    struct Entry: @unchecked Sendable {
        /// An owned SSL_SESSION reference.
        let session: OpaquePointer
        /// What the full handshake validated: a resumed handshake does not rebuild it.
        let verifiedChain: [[UInt8]]
    }

    private let entries = TracedMutex<[String: Entry]>([:])
    private let resumptions = Atomic<Int>(0)

    deinit {
        entries.withLock { entries in
            for entry in entries.values { SSL_SESSION_free(entry.session) }
            entries.removeAll()
        }
    }

    /// Takes ownership of `session` (one reference) as the newest for `key`.
    func store(_ session: OpaquePointer, verifiedChain: [[UInt8]], for key: String) {
        let entry = Entry(session: session, verifiedChain: verifiedChain)
        let previous: Entry? = entries.withLock { $0.updateValue(entry, forKey: key) }
        if let previous { SSL_SESSION_free(previous.session) }
    }

    /// Offers the cached session for `key` to `ssl`; returns the chain it was validated with.
    func offer(to ssl: OpaquePointer, for key: String) -> [[UInt8]] {
        // An extra reference keeps the session alive if another loop replaces it meanwhile.
        let entry: Entry? = entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            SSL_SESSION_up_ref(entry.session)
            return entry
        }
        guard let entry else { return [] }
        defer { SSL_SESSION_free(entry.session) }
        return SSL_set_session(ssl, entry.session) == 1 ? entry.verifiedChain : []
    }

    /// Forgets the session for `key` (after a failure that makes it suspect).
    func remove(_ key: String) {
        let previous: Entry? = entries.withLock { $0.removeValue(forKey: key) }
        if let previous { SSL_SESSION_free(previous.session) }
    }

    func noteResumption() {
        resumptions.add(1, ordering: .relaxed)
    }

    var resumptionCount: Int { resumptions.load(ordering: .relaxed) }

    var count: Int { entries.withLock { $0.count } }
}
