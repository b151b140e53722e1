/// The live sessions at one moment: by id, by claimed client address, and in creation order.
struct SessionDirectory {
    var byID: [String: Session] = [:]
    var byClient: [String: Session] = [:]
    var order: [Session] = []

    mutating func insert(_ session: Session) {
        byID[session.id] = session
        for client in session.clients { byClient[client] = session }
        order.append(session)
    }

    /// Removes `id`; false when no such session.
    @discardableResult
    mutating func remove(_ id: String) -> Bool {
        guard let session = byID.removeValue(forKey: id) else { return false }
        for client in session.clients where byClient[client] === session { byClient.removeValue(forKey: client) }
        order.removeAll { $0 === session }
        // A session's scenarios end with it.
        session.scenarios.stopAll()
        return true
    }

    /// Removes every session unused for longer than its time-to-live.
    mutating func sweep(now: UInt64) {
        for session in order where session.isExpired(now: now) { remove(session.id) }
    }
}
