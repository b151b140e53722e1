import FaultlineHTTP

/// Runs Faultline's decoder over a message the way a connection does (in two reads split
/// at `split`, so heads that straddle reads are covered) and returns the first head.
enum HeadDecoding {
    /// The first head decoded from `bytes`, or nil when the decoder refuses the input or
    /// needs more. `noBody` is set for the response to a HEAD request.
    static func firstHead(_ bytes: [UInt8], kind: HTTP1Decoder.Kind, split: Int, noBody: Bool = false) -> HTTPHead? {
        let decoder = HTTP1Decoder(kind: kind)
        decoder.responseHasNoBody = noBody
        let cut = bytes.isEmpty ? 0 : split % (bytes.count + 1)
        for piece in [bytes[..<cut], bytes[cut...]] where !piece.isEmpty {
            let status = piece.withUnsafeBytes { decoder.feed($0) }
            if decoder.events.contains(.head) { return decoder.head }
            switch status {
            case .needMore: continue
            case .messageComplete, .upgraded, .failed: return nil
            }
        }
        return nil
    }

    /// The fields of `headers` as (name, value) byte pairs, in order.
    static func fields(_ headers: HTTPHeaders) -> [StrictHead.Field] {
        (0..<headers.count).map { index in
            headers.withField(index) { name, value in StrictHead.Field(name: Array(name), value: Array(value)) }
        }
    }

    /// The lowercase names listed in the message's Connection fields.
    static func connectionOptions(_ fields: [StrictHead.Field]) -> Set<String> {
        var names = Set<String>()
        for field in fields where field.lowercaseName == "connection" {
            for element in field.value.split(separator: UInt8(ascii: ",")) {
                // Only the optional whitespace around an element goes: `x-tra  ce` names no field.
                let trimmed = element.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
                if !trimmed.isEmpty { names.insert(String(decoding: trimmed.map(lower), as: UTF8.self)) }
            }
        }
        return names
    }

    /// Fields that stop at every hop (RFC 9110 §7.6.1).
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate",
    ]
}
