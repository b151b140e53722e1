/// Caps text in a record: a cut lands on a UTF-8 character boundary and the record
/// says how much was left out (`…[truncated 12345 bytes]`).
enum Truncation {
    /// The first at most `limit` bytes of `bytes` (never splitting a UTF-8 sequence), and
    /// how many of `total` bytes were left out.
    static func cap<C: Collection<UInt8>>(_ bytes: C, limit: Int, total: Int? = nil) -> (kept: [UInt8], omitted: Int) {
        let all = total ?? bytes.count
        guard bytes.count > limit || all > bytes.count else { return (Array(bytes), 0) }
        var kept = Array(bytes.prefix(limit))
        if kept.count == limit, kept.count < bytes.count {
            var cut = kept.count
            let next = bytes.dropFirst(limit).first ?? 0
            if next & 0xC0 == 0x80 {
                while cut > 0, kept[cut - 1] & 0xC0 == 0x80 { cut -= 1 }
                if cut > 0 { cut -= 1 }
            }
            kept.removeLast(kept.count - cut)
        }
        return (kept, max(0, all - kept.count))
    }

    /// The marker appended to truncated text.
    static func marker(_ omitted: Int) -> String {
        "…[truncated \(omitted) bytes]"
    }
}
