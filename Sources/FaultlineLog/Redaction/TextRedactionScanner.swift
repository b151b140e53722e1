/// Redacts secrets in free text (error messages, debug output, non-JSON bodies, JSON string
/// values, parameter values): URLs (userinfo, and query and fragment parameters by the
/// query rules), `Bearer …` and `Basic …` credentials, the value after a sensitive name
/// followed by `=` or `:` (`token=abc`, `"password": "x"`, `\"jwt\": \"x\"`, `token[]=x`,
/// `%74oken=x`, `X-Api-Key: k`), and the text of a sensitive XML element
/// (`<password>x</password>`). One left-to-right pass; nothing is copied unless something
/// is redacted (see `RedactionEdits`).
struct TextRedactionScanner {
    /// The rules deciding which names are sensitive.
    let redactor: Redactor
    /// Prefix of the redacted-field names, e.g. `error`.
    let field: String
    /// How many parameter values deep this scan is (a URL in a parameter value in a URL…).
    var depth = 0

    /// Nesting beyond which a parameter value is not scanned again but redacted whole when
    /// it could hold a pair (it has `=`, `:` or `%`): the scan stays linear.
    static let maxDepth = 4

    private static let schemes: [[UInt8]] = [Array("bearer".utf8), Array("basic".utf8)]
    /// Schemes whose credential is a list of parameters (`Digest username="a", response="…"`):
    /// everything after the scheme, to the end of the line, is the secret.
    private static let parameterSchemes: [[UInt8]] = ["digest", "negotiate", "ntlm", "aws4-hmac-sha256", "hoba",
                                                      "mutual", "dpop", "oauth", "token"].map { Array($0.utf8) }

    /// Whether `bytes` has what any secret this scanner finds needs (a separator, a space
    /// before a credential, an escape or a tag): a cheap test that spares most values the scan.
    static func mayHoldSecret(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { byte in
            switch byte {
            case UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "<"), UInt8(ascii: "%"), UInt8(ascii: "+"), 32, 9: true
            default: false
            }
        }
    }

    /// The redacted bytes, and the fields redacted (in order).
    func redact(_ bytes: [UInt8]) -> (bytes: [UInt8], fields: [String]) {
        var edits = RedactionEdits(bytes[...])
        scan(bytes.indices, &edits)
        return (edits.changed ? edits.result() : bytes, edits.fields)
    }

    /// Scans `range` of `edits.input`, recording what it redacts in `edits`.
    func scan(_ range: Range<Int>, _ edits: inout RedactionEdits) {
        let bytes = edits.input
        var index = range.lowerBound
        let limit = range.upperBound
        while index < limit {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":"), index + 2 < limit, bytes[index + 1] == UInt8(ascii: "/"),
               bytes[index + 2] == UInt8(ascii: "/") {
                index = url(bytes, authority: index + 3, limit: limit, &edits)
            } else if byte == UInt8(ascii: "<") {
                index = element(bytes, from: index, limit: limit, &edits)
            } else if Self.startsName(bytes, at: index, limit: limit),
                      index == range.lowerBound || !ByteSearch.isNameByte(bytes[index - 1]) {
                index = name(bytes, from: index, limit: limit, &edits)
            } else {
                index += 1
            }
        }
    }

    /// A URL from its authority (just after `://`) to the first byte that cannot be part of
    /// it; returns where to go on.
    private func url(_ bytes: ArraySlice<UInt8>, authority: Int, limit: Int, _ edits: inout RedactionEdits) -> Int {
        var end = authority
        while end < limit, !Self.endsURL(bytes[end]) { end += 1 }
        // Userinfo may hold a quote (a sub-delim) that ends a URL in prose: when its `@`
        // lies past such a quote, the URL goes on after the `@`.
        var userinfoEnd = authority
        while userinfoEnd < limit, Self.isUserinfoByte(bytes[userinfoEnd]) { userinfoEnd += 1 }
        if userinfoEnd < limit, userinfoEnd >= end, bytes[userinfoEnd] == UInt8(ascii: "@") {
            end = userinfoEnd + 1
            while end < limit, !Self.endsURL(bytes[end]) { end += 1 }
        }
        redactor.redactURLTail(authority: authority, end: end, field: field, queryField: field + ".",
                               depth: depth, &edits)
        return end
    }

    /// `<name>text<` with a sensitive name: the text is redacted; returns where to go on.
    private func element(_ bytes: ArraySlice<UInt8>, from start: Int, limit: Int, _ edits: inout RedactionEdits) -> Int {
        var nameEnd = start + 1
        while nameEnd < limit, ByteSearch.isNameByte(bytes[nameEnd]) || bytes[nameEnd] == UInt8(ascii: ":") { nameEnd += 1 }
        var close = nameEnd
        while close < limit, close - start < 512, bytes[close] != UInt8(ascii: ">"), bytes[close] != UInt8(ascii: "<") { close += 1 }
        guard nameEnd > start + 1, close < limit, bytes[close] == UInt8(ascii: ">"), bytes[close - 1] != UInt8(ascii: "/") else {
            return start + 1
        }
        // A namespace prefix (`<ns:password>`) does not count.
        let local = bytes[(start + 1)..<nameEnd].lastIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? start + 1
        let valueStart = close + 1
        let valueEnd = bytes[valueStart..<limit].firstIndex(of: UInt8(ascii: "<")) ?? limit
        guard valueEnd > valueStart, redactor.isSensitiveTextName(bytes[local..<nameEnd]),
              !bytes[valueStart..<limit].starts(with: ByteSearch.placeholder) else {
            return start + 1
        }
        edits.redact(valueStart..<valueEnd, field: field + "." + RedactionName.lower(bytes[local..<nameEnd]))
        return valueEnd
    }

    /// Handles a name starting at `start`; returns where to go on.
    private func name(_ bytes: ArraySlice<UInt8>, from start: Int, limit: Int, _ edits: inout RedactionEdits) -> Int {
        var end = start
        var encoded = false
        while end < limit {
            if ByteSearch.isNameByte(bytes[end]) {
                end += 1
            } else if Self.isPercentEscape(bytes, at: end, limit: limit) {
                encoded = true
                end += 3
            } else {
                break
            }
        }
        // Bracketed parts as forms nest names: `token[]`, `user[password]`.
        while end < limit, bytes[end] == UInt8(ascii: "[") {
            var close = end + 1
            while close < limit, close - end <= 64, bytes[close] != UInt8(ascii: "]"), bytes[close] != UInt8(ascii: "="),
                  !ByteSearch.isSpace(bytes[close]) { close += 1 }
            guard close < limit, bytes[close] == UInt8(ascii: "]") else { break }
            end = close + 1
        }
        let word = bytes[start..<end]
        if Self.schemes.contains(where: { word.count == $0.count && ByteSearch.hasPrefix(bytes, at: start, caseInsensitive: $0) }) {
            var credential = end
            while credential < limit, bytes[credential] == 32 || bytes[credential] == 9 { credential += 1 }
            let valueEnd = Self.valueEnd(bytes, from: credential, limit: limit)
            if credential > end, valueEnd > credential, !bytes[credential..<limit].starts(with: ByteSearch.placeholder) {
                edits.redact(credential..<valueEnd, field: field + "." + RedactionName.lower(word))
                return valueEnd
            }
        }
        var separator = end
        if separator + 1 < limit, bytes[separator] == UInt8(ascii: "\\"), Self.isQuote(bytes[separator + 1]) {
            separator += 2
        } else if separator < limit, Self.isQuote(bytes[separator]) {
            separator += 1
        }
        while separator < limit, bytes[separator] == 32 || bytes[separator] == 9 { separator += 1 }
        let paired = separator < limit && (bytes[separator] == UInt8(ascii: "=") || bytes[separator] == UInt8(ascii: ":"))
            && !bytes[separator..<limit].starts(with: "://".utf8)
        var valueStart = separator + 1
        while valueStart < limit, bytes[valueStart] == 32 || bytes[valueStart] == 9 { valueStart += 1 }
        guard paired, encoded ? redactor.isSensitiveTextName(PercentDecoding.decode(word)) : redactor.isSensitiveTextName(word) else {
            // Not a secret by its name, but percent-encoding can hide one: an encoded
            // `access_token%3Dt` reads as one word, an encoded URL as a value.
            if encoded { decodedWord(bytes, start..<end, &edits) }
            if paired, bytes[separator] == UInt8(ascii: "="), valueStart < limit {
                let valueEnd = Self.valueEnd(bytes, from: valueStart, limit: limit)
                if bytes[valueStart..<valueEnd].contains(UInt8(ascii: "%")) {
                    redactor.redactValue(valueStart..<valueEnd, field: field + ".", depth: depth, &edits)
                    return valueEnd
                }
            }
            return end
        }
        if Self.schemes.contains(where: { ByteSearch.hasPrefix(bytes, at: valueStart, caseInsensitive: $0 + [32]) }) {
            return valueStart
        }
        let label = field + "." + RedactionName.lower(encoded ? PercentDecoding.decode(word)[...] : word)
        if let scheme = Self.parameterSchemes.first(where: { ByteSearch.hasPrefix(bytes, at: valueStart, caseInsensitive: $0 + [32]) }) {
            let credential = valueStart + scheme.count + 1
            let lineEnd = bytes[credential..<limit].firstIndex { $0 == 10 || $0 == 13 } ?? limit
            edits.redact(credential..<lineEnd, field: label)
            return lineEnd
        }
        var quote: UInt8?
        if valueStart + 1 < limit, bytes[valueStart] == UInt8(ascii: "\\"), Self.isQuote(bytes[valueStart + 1]) {
            quote = bytes[valueStart + 1]
            valueStart += 2
        } else if valueStart < limit, Self.isQuote(bytes[valueStart]) {
            quote = bytes[valueStart]
            valueStart += 1
        }
        if quote == nil, Self.namesCookie(encoded ? PercentDecoding.decode(word)[...] : word) {
            return cookie(bytes, valueStart: valueStart, separator: bytes[separator], limit: limit, label: label, &edits)
        }
        var valueEnd = Self.valueEnd(bytes, from: valueStart, limit: limit)
        if let quote {
            valueEnd = bytes[valueStart..<limit].firstIndex(of: quote) ?? limit
            // An escaped quote (`\"`) ends it too, at its backslash.
            if valueEnd > valueStart, valueEnd < limit, bytes[valueEnd - 1] == UInt8(ascii: "\\") { valueEnd -= 1 }
        }
        guard valueEnd > valueStart, !bytes[valueStart..<limit].starts(with: ByteSearch.placeholder) else {
            return valueStart
        }
        edits.redact(valueStart..<valueEnd, field: label)
        return valueEnd
    }

    /// The unquoted value of a cookie name (`Cookie: a=1; sid=S`, `set-cookie: id=S; Path=/`):
    /// every crumb is a secret, and HTTP/2 joins a request's crumbs into one line, so the
    /// value runs to the end of the line (after `=`, also to a `&`, as in a form).
    private func cookie(_ bytes: ArraySlice<UInt8>, valueStart: Int, separator: UInt8, limit: Int, label: String,
                        _ edits: inout RedactionEdits) -> Int {
        let valueEnd = bytes[valueStart..<limit].firstIndex { byte in
            byte == 10 || byte == 13 || (separator == UInt8(ascii: "=") && byte == UInt8(ascii: "&"))
        } ?? limit
        guard valueEnd > valueStart, !bytes[valueStart..<valueEnd].elementsEqual(ByteSearch.placeholder) else { return valueEnd }
        edits.redact(valueStart..<valueEnd, field: label)
        return valueEnd
    }

    /// Whether a name is a cookie's (`Cookie`, `Set-Cookie`, `X-Original-Cookie`).
    private static func namesCookie(_ word: some Collection<UInt8>) -> Bool {
        ByteSearch.contains(Array(RedactionName.normalize(word).utf8), cookieName)
    }

    private static let cookieName = Array("cookie".utf8)

    /// A percent-encoded word that decodes to something with a separator: scanned decoded,
    /// written back encoded when something in it was redacted.
    private func decodedWord(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, _ edits: inout RedactionEdits) {
        let decoded = PercentDecoding.decode(bytes[range])
        guard decoded.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") }) else { return }
        guard depth < Self.maxDepth else {
            edits.redact(range, field: field)
            return
        }
        var inner = RedactionEdits(decoded[...])
        TextRedactionScanner(redactor: redactor, field: field, depth: depth + 1).scan(decoded.indices, &inner)
        guard inner.changed else { return }
        edits.replace(range, with: PercentDecoding.encode(inner.result()), field: nil)
        edits.fields += inner.fields
    }

    /// Whether a name can start at `index`: a name byte or a percent escape.
    private static func startsName(_ bytes: ArraySlice<UInt8>, at index: Int, limit: Int) -> Bool {
        ByteSearch.isNameByte(bytes[index]) || isPercentEscape(bytes, at: index, limit: limit)
    }

    /// Whether `%XX` (two hex digits) starts at `index`.
    private static func isPercentEscape(_ bytes: ArraySlice<UInt8>, at index: Int, limit: Int) -> Bool {
        index + 2 < limit && bytes[index] == UInt8(ascii: "%") && ByteSearch.isHexDigit(bytes[index + 1]) && ByteSearch.isHexDigit(bytes[index + 2])
    }

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// The end of an unquoted value: the next space, quote, separator or bracket.
    private static func valueEnd(_ bytes: ArraySlice<UInt8>, from start: Int, limit: Int) -> Int {
        var index = start
        while index < limit {
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

    /// userinfo (RFC 3986 §3.2.1): unreserved, pct-encoded, sub-delims and `:`.
    private static func isUserinfoByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }

    /// Bytes that cannot be part of a URL in text: whitespace, quotes, angle brackets and
    /// the characters RFC 3986 never allows.
    private static func endsURL(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...32, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "^"):
            true
        default:
            false
        }
    }
}
