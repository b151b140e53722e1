extension Redactor {
    /// A captured body as it may be logged: JSON (`application/json`, `+json`, or an
    /// untyped body that starts like JSON) goes through `JSONFieldScanner` (sensitive
    /// members redacted at any depth, every string through the free-text rules, JSON in
    /// strings too), a form (`application/x-www-form-urlencoded`) has its sensitive fields
    /// redacted (body and query rules) and its other values scanned as text, any other text
    /// goes through `redact(text:)`. Invalid UTF-8 becomes U+FFFD. Fields:
    /// `<direction>.body.<name>`.
    public func redactBody(_ body: [UInt8], contentType: String?, direction: LogDirection) -> Redacted {
        switch Self.bodyKind(contentType, body) {
        case .json:
            let result = JSONFieldScanner(redactor: self, field: direction.bodyFieldPrefix).redactDocument(body)
            return Redacted(text: String(decoding: result.bytes, as: UTF8.self), redactedFields: result.fields)
        case .form:
            var edits = RedactionEdits(body[...])
            redactPairs(body.indices, form: true, field: direction.bodyFieldPrefix, depth: 0, &edits)
            return Redacted(text: String(decoding: edits.changed ? edits.result() : body, as: UTF8.self), redactedFields: edits.fields)
        case .text:
            return redact(text: String(decoding: body, as: UTF8.self), field: direction.bodyField)
        }
    }

    /// A JSON document held as text (a pin report's extra members), redacted as a JSON body
    /// is: sensitive members' values replaced whole (strings, numbers, arrays and objects
    /// alike) at any depth, every other string through the free-text rules. Fields:
    /// `<field>.<name>`.
    public func redact(json text: String, field: String) -> Redacted {
        let result = JSONFieldScanner(redactor: self, field: field + ".").redactDocument(Array(text.utf8))
        return result.changed ? Redacted(text: String(decoding: result.bytes, as: UTF8.self), redactedFields: result.fields)
            : Redacted(text: text)
    }

    private enum BodyKind { case json, form, text }

    private static func bodyKind(_ contentType: String?, _ body: [UInt8]) -> BodyKind {
        switch MediaType.bodySyntax(contentType) {
        case .json: return .json
        case .form: return .form
        case .other: return .text
        case .absent:
            guard let first = body.first(where: { !ByteSearch.isSpace($0) }) else { return .text }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .text
        }
    }
}
