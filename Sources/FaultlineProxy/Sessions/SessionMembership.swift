import FaultlineHTTP

/// Which session a request belongs to: the one its `X-Faultline-Session` header names, else
/// the one claiming its client address, else none. A named session that does not exist (or
/// expired) leaves the request outside sessions, noted as unknown: an app mid-test keeps working.
struct SessionMembership {
    /// The live session the request runs in.
    let session: Session?
    /// Whether the request carried the session header (which is then never forwarded).
    let namedByHeader: Bool
    /// Whether the header named no live session.
    let unknown: Bool

    init(_ head: HTTPHead, clientIP: String, sessions: SessionRegistry, now: UInt64) {
        if let value = head.headers.first("x-faultline-session") {
            namedByHeader = true
            session = sessions.session(id: value.trimmingASCIISpaces, now: now)
            unknown = session == nil
        } else {
            namedByHeader = false
            unknown = false
            session = sessions.session(client: clientIP, now: now)
        }
        session?.requests.add(1, ordering: .relaxed)
    }

    /// Marks `trace` with the session (or the unknown id), for the log and the journals.
    func note(on trace: ExchangeTrace) {
        trace.session = session
        trace.sessionUnknown = unknown
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingASCIISpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
