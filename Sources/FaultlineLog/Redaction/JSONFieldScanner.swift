/// Redacts JSON at any depth with a forgiving byte scanner: it never fails, so invalid or
/// truncated JSON still has its `"name": value` pairs redacted.
///
/// - A member whose (unescaped) name is sensitive by the body rules (body field names,
///   header names such as an echoed `"Cookie"` or `"X-Api-Key"`, the extra names and the
///   header substrings) has its value replaced whole: string, number, object or array
///   becomes `"[REDACTED]"`; `null` is kept.
/// - In an object naming a secret in `"name"` or `"key"` (`{"name": "X-Api-Key", "value":
///   …}`, as HAR headers and Kubernetes env entries are written), the `"value"` member that
///   follows is redacted the same way.
/// - Every other string, key or value, goes through the free-text rules (URLs with query
///   secrets, `name=value`, `Bearer …`); a string holding JSON (`"{\"password\": …}"`) is
///   unescaped and scanned as JSON itself, up to `maxDepth` levels, then escaped back.
struct JSONFieldScanner {
    /// The rules deciding which names are sensitive.
    let redactor: Redactor
    /// Prefix of the redacted-field names, e.g. `request.body.`.
    let field: String
    /// How many JSON-in-a-string levels deep this scan is.
    let depth: Int
    /// The free-text scanner every string goes through (made once per document, not per string).
    private let text: TextRedactionScanner

    init(redactor: Redactor, field: String, depth: Int = 0) {
        self.redactor = redactor
        self.field = field
        self.depth = depth
        text = TextRedactionScanner(redactor: redactor, field: String(field.dropLast()))
    }

    /// Levels of JSON inside JSON strings that are parsed as JSON; deeper ones are scanned
    /// as free text (which still catches `"name": "value"` pairs).
    static let maxDepth = 8

    private static let redactedValue = Array("\"\(RedactionDefaults.placeholder)\"".utf8)

    /// The redacted document and the fields redacted (in order). When the input does not
    /// look well-formed (unbalanced, a string not closed or not followed by `,` `:` `}`
    /// `]`), broken quoting could hide a pair, so a free-text pass runs over the result too.
    func redactDocument(_ bytes: [UInt8]) -> (bytes: [UInt8], fields: [String], changed: Bool) {
        var edits = RedactionEdits(bytes[...])
        let wellFormed = scan(&edits)
        let once = edits.changed ? edits.result() : bytes
        if wellFormed { return (once, edits.fields, edits.changed) }
        var again = RedactionEdits(once[...])
        text.scan(once.indices, &again)
        return (again.changed ? again.result() : once, edits.fields + again.fields, edits.changed || again.changed)
    }

    /// Scans the whole of `edits.input`; returns whether it looked well-formed.
    func scan(_ edits: inout RedactionEdits) -> Bool {
        let bytes = edits.input
        var nesting = 0
        // A `{"name": "X-Api-Key", "value": …}` pair (HAR headers, Kubernetes env): the
        // sensitive name seen and the nesting of its object, so its `value` goes too.
        var pairName: (nesting: Int, name: [UInt8])?
        var wellFormed = true
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "\"") else {
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    nesting -= 1
                    if let pair = pairName, nesting < pair.nesting { pairName = nil }
                default: break
                }
                index += 1
                continue
            }
            let string = Self.skipString(bytes, from: index)
            var colon = string.end
            while colon < bytes.endIndex, ByteSearch.isSpace(bytes[colon]) { colon += 1 }
            guard string.closed, colon < bytes.endIndex, bytes[colon] == UInt8(ascii: ":") else {
                if !string.closed || (colon < bytes.endIndex && !",}]".utf8.contains(bytes[colon])) { wellFormed = false }
                redactString(index..<string.end, closed: string.closed, escaped: string.escaped, &edits)
                index = string.end
                continue
            }
            let rawKey = bytes[(index + 1)..<(string.end - 1)]
            let key = string.escaped ? JSONString.unescape(rawKey)[...] : rawKey
            var label = key
            var sensitive = redactor.bodyRules.matches(key)
            if !sensitive, let pair = pairName, pair.nesting == nesting, Self.isWord(key, "value") {
                sensitive = true
                label = pair.name[...]
            }
            guard sensitive else {
                if Self.isWord(key, "name") || Self.isWord(key, "key") {
                    pairName = pairedName(bytes, after: colon, nesting: nesting) ?? pairName
                }
                redactString(index..<string.end, closed: true, escaped: string.escaped, &edits)
                index = string.end
                continue
            }
            var valueStart = colon + 1
            while valueStart < bytes.endIndex, ByteSearch.isSpace(bytes[valueStart]) { valueStart += 1 }
            guard valueStart < bytes.endIndex else {
                wellFormed = false
                break
            }
            let valueEnd = Self.skipValue(bytes, from: valueStart)
            if bytes[valueStart] == UInt8(ascii: "\""), !Self.skipString(bytes, from: valueStart).closed { wellFormed = false }
            if !bytes[valueStart..<valueEnd].elementsEqual("null".utf8) {
                edits.replace(valueStart..<valueEnd, with: Self.redactedValue, field: field + RedactionName.lower(label))
            }
            index = valueEnd
        }
        return wellFormed && nesting == 0
    }

    /// The value of a `"name"`/`"key"` member starting after `colon`, when it is a string
    /// naming a secret, with the member's nesting.
    private func pairedName(_ bytes: ArraySlice<UInt8>, after colon: Int, nesting: Int) -> (nesting: Int, name: [UInt8])? {
        var start = colon + 1
        while start < bytes.endIndex, ByteSearch.isSpace(bytes[start]) { start += 1 }
        guard start < bytes.endIndex, bytes[start] == UInt8(ascii: "\"") else { return nil }
        let string = Self.skipString(bytes, from: start)
        guard string.closed else { return nil }
        let raw = bytes[(start + 1)..<(string.end - 1)]
        let name = string.escaped ? JSONString.unescape(raw) : Array(raw)
        return redactor.bodyRules.matches(name) ? (nesting, name) : nil
    }

    /// Whether `key` is `word` (ASCII, case-insensitive).
    private static func isWord(_ key: ArraySlice<UInt8>, _ word: String) -> Bool {
        key.count == word.utf8.count && zip(key, word.utf8).allSatisfy { ByteSearch.lower($0) == $1 }
    }

    /// A string (from its opening quote) through the free-text rules; JSON inside it
    /// through this scanner.
    private func redactString(_ range: Range<Int>, closed: Bool, escaped: Bool, _ edits: inout RedactionEdits) {
        let contentStart = range.lowerBound + 1
        let contentEnd = closed ? range.upperBound - 1 : range.upperBound
        guard contentEnd > contentStart else { return }
        guard escaped else {
            // No escapes: the bytes are the text, and `[REDACTED]` needs no escaping.
            text.scan(contentStart..<contentEnd, &edits)
            return
        }
        let content = JSONString.unescape(edits.input[contentStart..<contentEnd])
        let first = content.first { !ByteSearch.isSpace($0) }
        let redacted: (bytes: [UInt8], fields: [String], changed: Bool)
        if depth < Self.maxDepth, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            redacted = JSONFieldScanner(redactor: redactor, field: field, depth: depth + 1).redactDocument(content)
        } else {
            let (bytes, fields) = text.redact(content)
            redacted = (bytes, fields, !fields.isEmpty)
        }
        guard redacted.changed else { return }
        edits.replace(contentStart..<contentEnd, with: JSONString.escape(redacted.bytes), field: nil)
        edits.fields += redacted.fields
    }

    /// The index after the string starting at `start` (a quote), whether it was closed, and
    /// whether it holds an escape.
    static func skipString(_ bytes: ArraySlice<UInt8>, from start: Int) -> (end: Int, closed: Bool, escaped: Bool) {
        var index = start + 1
        var escaped = false
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                escaped = true
                index += 2
            case UInt8(ascii: "\""):
                return (index + 1, true, escaped)
            default:
                index += 1
            }
        }
        return (bytes.endIndex, false, escaped)
    }

    /// The index after the value starting at `start`: a string, a balanced object or
    /// array (to the end when unbalanced), or a bare word up to a delimiter.
    static func skipValue(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        let first = bytes[start]
        if first == UInt8(ascii: "\"") { return skipString(bytes, from: start).end }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var depth = 0
            var index = start
            while index < bytes.endIndex {
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
            return bytes.endIndex
        }
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || ByteSearch.isSpace(byte) {
                break
            }
            index += 1
        }
        return max(index, start + 1)
    }
}
