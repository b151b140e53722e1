private import COpenSSL

/// Reads and clears OpenSSL's thread-local error queue, which would otherwise leak stale
/// reasons into the next failure reported on the same thread.
enum TLSOpenSSLErrors {
    /// The packed error codes queued on this thread, oldest first; the queue is left empty.
    static func drain() -> [UInt] {
        var codes: [UInt] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { return codes }
            codes.append(code)
        }
    }

    /// Empties the queue before an operation whose failure will be inspected.
    static func clear() {
        ERR_clear_error()
    }

    /// `clear()` when something is queued: the data path calls this before every record, and
    /// looking costs less than clearing all sixteen slots of an empty queue.
    static func clearIfNeeded() {
        if ERR_peek_error() != 0 { ERR_clear_error() }
    }

    /// OpenSSL's reason text for a packed code, e.g. "no shared cipher".
    static func reasonText(_ code: UInt) -> String {
        if let text = ERR_reason_error_string(code) {
            return String(cString: text)
        }
        return "error 0x" + String(code, radix: 16)
    }

    /// The reasons of the queued errors joined for a message, draining the queue.
    static func drainedText() -> String {
        let texts = drain().map(reasonText)
        return texts.isEmpty ? "unknown OpenSSL error" : texts.joined(separator: "; ")
    }
}
