/// Redacts secrets in free text (error messages, debug output, non-JSON bodies): URL
/// userinfo, `Bearer …` and `Basic …` credentials, and the value after a sensitive name
/// followed by `=` or `:` (`token=abc`, `"password": "x"`, `X-Api-Key: k`).
struct TextRedactionScanner {
    /// The rules deciding which names are sensitive.
    let redactor: Redactor
    /// Prefix of the redacted-field names, e.g. `error`.
    let field: String

    private static let schemes: [[UInt8]] = [Array("bearer".utf8), Array("basic".utf8)]
    /// Schemes whose credential is a list of parameters (`Digest username="a", response="…"`):
    /// everything after the scheme, to the end of the line, is the secret.
    private static let parameterSchemes: [[UInt8]] = ["digest", "negotiate", "ntlm", "aws4-hmac-sha256", "hoba",
                                                      "mutual", "dpop", "oauth", "token"].map { Array($0.utf8) }

    /// The redacted bytes, and the fields redacted (in order).
    func redact(_ bytes: [UInt8]) -> (bytes: [UInt8], fields: [String]) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var fields: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":"), bytes[index...].starts(with: "://".utf8) {
                index = userinfo(bytes, from: index + 3, &out, &fields)
            } else if ByteSearch.isNameByte(byte), index == 0 || !ByteSearch.isNameByte(bytes[index - 1]) {
                index = name(bytes, from: index, &out, &fields)
            } else {
                out.append(byte)
                index += 1
            }
        }
        return (out, fields)
    }

    /// Copies `://` and the authority, redacting userinfo; returns where to go on.
    private func userinfo(_ bytes: [UInt8], from start: Int, _ out: inout [UInt8], _ fields: inout [String]) -> Int {
        out.append(contentsOf: "://".utf8)
        var end = start
        while end < bytes.count, !Self.endsAuthority(bytes[end]) { end += 1 }
        guard let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) else { return start }
        out.append(contentsOf: ByteSearch.placeholder)
        fields.append(field + ".userinfo")
        return at
    }

    /// Handles a name starting at `start`; returns where to go on.
    private func name(_ bytes: [UInt8], from start: Int, _ out: inout [UInt8], _ fields: inout [String]) -> Int {
        var end = start
        while end < bytes.count, ByteSearch.isNameByte(bytes[end]) { end += 1 }
        let word = bytes[start..<end]
        if Self.schemes.contains(where: { word.count == $0.count && ByteSearch.hasPrefix(bytes, at: start, caseInsensitive: $0) }) {
            var credential = end
            while credential < bytes.count, bytes[credential] == 32 || bytes[credential] == 9 { credential += 1 }
            let valueEnd = Self.valueEnd(bytes, from: credential)
            if credential > end, valueEnd > credential {
                out.append(contentsOf: bytes[start..<credential])
                out.append(contentsOf: ByteSearch.placeholder)
                fields.append(field + "." + RedactionName.lower(word))
                return valueEnd
            }
        }
        var separator = end
        if separator < bytes.count, bytes[separator] == UInt8(ascii: "\"") || bytes[separator] == UInt8(ascii: "'") { separator += 1 }
        while separator < bytes.count, bytes[separator] == 32 || bytes[separator] == 9 { separator += 1 }
        guard separator < bytes.count, bytes[separator] == UInt8(ascii: "=") || bytes[separator] == UInt8(ascii: ":"),
              !bytes[separator...].starts(with: "://".utf8), redactor.isSensitiveTextName(word) else {
            out.append(contentsOf: word)
            return end
        }
        var valueStart = separator + 1
        while valueStart < bytes.count, bytes[valueStart] == 32 || bytes[valueStart] == 9 { valueStart += 1 }
        if Self.schemes.contains(where: { ByteSearch.hasPrefix(bytes, at: valueStart, caseInsensitive: $0 + [32]) }) {
            out.append(contentsOf: bytes[start..<valueStart])
            return valueStart
        }
        if let scheme = Self.parameterSchemes.first(where: { ByteSearch.hasPrefix(bytes, at: valueStart, caseInsensitive: $0 + [32]) }) {
            let credential = valueStart + scheme.count + 1
            let lineEnd = bytes[credential...].firstIndex { $0 == 10 || $0 == 13 } ?? bytes.count
            out.append(contentsOf: bytes[start..<credential])
            out.append(contentsOf: ByteSearch.placeholder)
            fields.append(field + "." + RedactionName.lower(word))
            return lineEnd
        }
        var quote: UInt8?
        if valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: "\"") || bytes[valueStart] == UInt8(ascii: "'") {
            quote = bytes[valueStart]
            valueStart += 1
        }
        let valueEnd = quote.map { quote in bytes[valueStart...].firstIndex(of: quote) ?? bytes.count }
            ?? Self.valueEnd(bytes, from: valueStart)
        guard valueEnd > valueStart, !bytes[valueStart...].starts(with: ByteSearch.placeholder) else {
            out.append(contentsOf: bytes[start..<valueStart])
            return valueStart
        }
        out.append(contentsOf: bytes[start..<valueStart])
        out.append(contentsOf: ByteSearch.placeholder)
        fields.append(field + "." + RedactionName.lower(word))
        return valueEnd
    }

    /// The end of an unquoted value: the next space, quote, separator or bracket.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 32, 9, 10, 13, UInt8(ascii: "&"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\""),
                 UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "<"),
                 UInt8(ascii: ">"):
                return index
            default:
                index += 1
            }
        }
        return index
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), 32, 9, 10, 13, UInt8(ascii: "\""),
             UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"):
            true
        default:
            false
        }
    }
}
