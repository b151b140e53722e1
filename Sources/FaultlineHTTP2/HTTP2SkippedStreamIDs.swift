/// The stream ids a client skipped. Opening stream 7 first closes the idle streams 1, 3 and 5
/// (RFC 9113 §5.1.1), so a later HEADERS frame on one of them names a stream that can never be
/// opened: an unexpected stream identifier, a connection error of type PROTOCOL_ERROR.
///
/// nghttp2 only remembers the highest stream id it has seen and ignores a HEADERS frame below it
/// (a stream it has reset and forgotten may still get the client's trailers, which is no error),
/// so it answers the earlier streams and never reports the skipped one. The ids skipped are
/// known exactly, in ranges; a client that skips ids many times has only its latest `limit`
/// ranges remembered, and a HEADERS frame on an older one is ignored as nghttp2 does.
struct HTTP2SkippedStreamIDs {
    /// The highest stream id a HEADERS frame from the client has opened (0 before any).
    private(set) var highest: Int64 = 0
    /// Skipped ids, oldest range first.
    private var ranges: [ClosedRange<Int64>] = []
    /// How many ranges are remembered.
    static let limit = 16

    /// Notes a HEADERS frame from the client on `streamID` (the frame header's 31-bit id);
    /// false when it names a stream the client skipped.
    mutating func headersBegin(streamID: Int32) -> Bool {
        let id = Int64(streamID)
        // Even ids and stream 0 are nghttp2's to refuse (a connection error of its own).
        guard id > 0, id % 2 == 1 else { return true }
        if id > highest {
            let first = highest == 0 ? 1 : highest + 2
            if first <= id - 2 {
                if ranges.count == Self.limit { ranges.removeFirst() }
                ranges.append(first...(id - 2))
            }
            highest = id
            return true
        }
        return !ranges.contains { $0.contains(id) }
    }
}
