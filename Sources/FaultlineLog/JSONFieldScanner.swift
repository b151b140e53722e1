/// Redacts named fields of JSON at any depth with a forgiving byte scanner: it never
/// fails, so invalid or truncated JSON still has its `"name": value` pairs redacted. A
/// sensitive member's value (string, number, object or array) becomes `"[REDACTED]"`;
/// `null` is kept.
struct JSONFieldScanner {
    /// Normalised field names to redact.
    let names: Set<String>
    /// Prefix of the redacted-field names, e.g. `request.body.`.
    let field: String

    /// The redacted bytes, the fields redacted (in order), and whether the input looked
    /// well-formed (balanced, every string closed and followed by `,` `:` `}` `]`); when it
    /// did not, the caller runs a free-text pass over the result as well.
    func redact(_ bytes: [UInt8]) -> (bytes: [UInt8], fields: [String], wellFormed: Bool) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var fields: [String] = []
        var depth = 0
        var wellFormed = true
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                out.append(bytes[index])
                index += 1
                continue
            }
            let (end, closed) = Self.skipString(bytes, from: index)
            var colon = end
            while colon < bytes.count, ByteSearch.isSpace(bytes[colon]) { colon += 1 }
            guard closed, colon < bytes.count, bytes[colon] == UInt8(ascii: ":") else {
                if !closed || (colon < bytes.count && !",}]".utf8.contains(bytes[colon])) { wellFormed = false }
                out.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            let key = Self.unescape(bytes[(index + 1)..<(end - 1)])
            guard names.contains(RedactionName.normalize(key)) else {
                out.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            var valueStart = colon + 1
            while valueStart < bytes.count, ByteSearch.isSpace(bytes[valueStart]) { valueStart += 1 }
            out.append(contentsOf: bytes[index..<valueStart])
            guard valueStart < bytes.count else {
                wellFormed = false
                break
            }
            let valueEnd = Self.skipValue(bytes, from: valueStart)
            if bytes[valueStart] == UInt8(ascii: "\""), !Self.skipString(bytes, from: valueStart).closed { wellFormed = false }
            if bytes[valueStart..<valueEnd].elementsEqual("null".utf8) {
                out.append(contentsOf: bytes[valueStart..<valueEnd])
            } else {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: ByteSearch.placeholder)
                out.append(UInt8(ascii: "\""))
                fields.append(field + RedactionName.lower(key))
            }
            index = valueEnd
        }
        return (out, fields, wellFormed && depth == 0)
    }

    /// The index after the string starting at `start` (a quote), and whether it was closed.
    static func skipString(_ bytes: [UInt8], from start: Int) -> (end: Int, closed: Bool) {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return (index + 1, true)
            default: index += 1
            }
        }
        return (bytes.count, false)
    }

    /// The index after the value starting at `start`: a string, a balanced object or
    /// array (to the end when unbalanced), or a bare word up to a delimiter.
    static func skipValue(_ bytes: [UInt8], from start: Int) -> Int {
        let first = bytes[start]
        if first == UInt8(ascii: "\"") { return skipString(bytes, from: start).end }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = skipString(bytes, from: index).end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return bytes.count
        }
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || ByteSearch.isSpace(byte) {
                break
            }
            index += 1
        }
        return max(index, start + 1)
    }

    /// A JSON string body's bytes with simple escapes resolved (enough to compare names:
    /// `"pass\u0077ord"` is `password`).
    static func unescape(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")) else { return Array(raw) }
        var out: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.endIndex else {
                out.append(byte)
                index += 1
                continue
            }
            let next = raw[index + 1]
            if next == UInt8(ascii: "u"), index + 6 <= raw.endIndex,
               let code = UInt32(String(decoding: raw[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16),
               let scalar = Unicode.Scalar(code) {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                index += 6
            } else {
                out.append(next)
                index += 2
            }
        }
        return out
    }
}
