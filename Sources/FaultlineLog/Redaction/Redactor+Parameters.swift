extension Redactor {
    /// Redacts the values of sensitive `name=value` pairs of a query string (without the
    /// `?`); names are kept, and the other values go through the free-text rules (a URL
    /// with its own secrets in `next=…`). Fields are listed as `<direction>.query.<name>`.
    public func redactQuery(_ query: String, direction: LogDirection = .request) -> Redacted {
        let bytes = Array(query.utf8)
        var edits = RedactionEdits(bytes[...])
        redactPairs(bytes.indices, form: false, field: direction.queryFieldPrefix, depth: 0, &edits)
        return edits.changed ? Redacted(text: String(decoding: edits.result(), as: UTF8.self), redactedFields: edits.fields)
            : Redacted(text: query)
    }

    /// Redacts `&`-separated pairs in `range` of `edits.input`: the value of a pair whose
    /// percent-decoded name is sensitive (query rules; for a form, the body rules as well)
    /// is replaced, any other value is scanned as free text (percent-decoded first when it
    /// holds escapes, and written back encoded when something in it was redacted).
    func redactPairs(_ range: Range<Int>, form: Bool, field prefix: String, depth: Int, _ edits: inout RedactionEdits) {
        let bytes = edits.input
        var start = range.lowerBound
        while start <= range.upperBound {
            let end = bytes[start..<range.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? range.upperBound
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                let raw = bytes[start..<equals]
                let encoded = raw.contains(UInt8(ascii: "%")) || raw.contains(UInt8(ascii: "+"))
                let sensitive = encoded ? isSensitiveParameter(PercentDecoding.decode(raw), form: form)
                    : isSensitiveParameter(raw, form: form)
                if sensitive {
                    let name = encoded ? RedactionName.lower(PercentDecoding.decode(raw)) : RedactionName.lower(raw)
                    edits.redact((equals + 1)..<end, field: prefix + name)
                } else if end > equals + 1 {
                    redactValue((equals + 1)..<end, field: prefix, depth: depth, &edits)
                }
            }
            if end == range.upperBound { break }
            start = end + 1
        }
    }

    /// Whether a decoded parameter name is sensitive.
    private func isSensitiveParameter(_ name: some Collection<UInt8>, form: Bool) -> Bool {
        queryRules.matches(name) || (form && bodyRules.matches(name))
    }

    /// A parameter value that is not secret by its name, through the free-text rules;
    /// `prefix` ends in `.` (`request.query.`).
    func redactValue(_ range: Range<Int>, field prefix: String, depth: Int, _ edits: inout RedactionEdits) {
        let bytes = edits.input
        // Most values (ids, numbers, words) cannot hold anything the scan finds.
        guard TextRedactionScanner.mayHoldSecret(bytes[range]) else { return }
        let textField = String(prefix.dropLast())
        guard depth < TextRedactionScanner.maxDepth else {
            // Deep nesting (a URL in a value in a URL…) is not followed further: what could
            // hold a pair goes whole.
            if bytes[range].contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "%") }) {
                edits.redact(range, field: textField)
            }
            return
        }
        let scanner = TextRedactionScanner(redactor: self, field: textField, depth: depth + 1)
        // `+` is a space in a query or form value (`Bearer+…`): those are scanned decoded too.
        guard bytes[range].contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            scanner.scan(range, &edits)
            return
        }
        let decoded = PercentDecoding.decode(bytes[range])
        var inner = RedactionEdits(decoded[...])
        scanner.scan(decoded.indices, &inner)
        guard inner.changed else { return }
        edits.replace(range, with: PercentDecoding.encode(inner.result()), field: nil)
        edits.fields += inner.fields
    }
}
