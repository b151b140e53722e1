/// Builds texts around a canary secret for the redaction target. The canary is the only
/// source of the byte `Q` in a text: fuzz-chosen filler never contains it (it is mapped to
/// `q`), nor does any fixed part, so a `Q` anywhere in redacted output means part of the
/// secret survived.
enum CanaryText {
    /// The byte that marks the canary.
    static let mark = UInt8(ascii: "Q")

    /// `bytes` with the mark replaced and each byte outside `allowed` (when given) mapped into it.
    static func filler(_ bytes: [UInt8], allowed: [UInt8]? = nil) -> [UInt8] {
        bytes.map { byte in
            var out = byte == mark ? UInt8(ascii: "q") : byte
            if let allowed, !allowed.contains(out) { out = allowed[Int(out) % allowed.count] }
            return out
        }
    }

    /// A canary: `Q`, filler from `allowed`, `Q`.
    static func canary(_ bytes: [UInt8], allowed: [UInt8]) -> [UInt8] {
        [mark] + filler(Array(bytes.prefix(40)), allowed: allowed) + [mark]
    }

    /// Letters and digits but the mark.
    static let alphanumeric: [UInt8] = Array("ABCDEFGHIJKLMNOPRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    /// What a query or form value may hold besides `&`, `#` and `;` (which end it) and `Q`.
    static let queryValue: [UInt8] = (0x21...0x7E).filter { !"&#;Q".utf8.contains($0) }
    /// A query value inside a URL written in text or a JSON string (RFC 3986 §3.4: pchar,
    /// `/` and `?`), less `&` and `;` (which end it) and `'` (a quote ends a URL in text).
    static let urlQueryValue: [UInt8] = alphanumeric + Array("-._~!$()*+,=:@/?%".utf8)
    /// Bytes of a URL's userinfo (RFC 3986 §3.2.1): unreserved, sub-delims, `:` and `%`.
    static let userinfo: [UInt8] = alphanumeric + Array("-._~!$&'()*+,;=:%".utf8)
    /// token68 (RFC 9110 §11.2): a Bearer or Basic credential.
    static let token68: [UInt8] = alphanumeric + Array("-._~+/=".utf8)
    /// cookie-octet (RFC 6265 §4.1.1).
    static let cookieOctet: [UInt8] = (0x21...0x7E).filter { !"\",;\\Q".utf8.contains($0) }
    /// Anything printable in a JSON string (the encoder escapes quotes and backslashes).
    static let jsonText: [UInt8] = (0x20...0x7E).filter { $0 != mark }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [34]
        for scalar in String(decoding: text, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": out += Array("\\\"".utf8)
            case "\\": out += Array("\\\\".utf8)
            case "\n": out += Array("\\n".utf8)
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                } else {
                    out += Array(String(Character(scalar)).utf8)
                }
            }
        }
        out.append(34)
        return out
    }

    /// Where in `output` the mark appears, or nil.
    static func leak(in output: [UInt8]) -> Int? {
        output.firstIndex(of: mark)
    }
}
