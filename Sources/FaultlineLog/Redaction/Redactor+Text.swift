extension Redactor {
    /// Free text (an error message, debug output) with secrets redacted: URLs (userinfo,
    /// sensitive query and fragment parameters), `Bearer …`/`Basic …` credentials, values
    /// after sensitive names followed by `=` or `:` (`token=…`, `"password": "…"`,
    /// `X-Api-Key: …`, `token[]=…`) and sensitive XML elements. Fields: `<field>.<name>`.
    public func redact(text: String, field: String = "text") -> Redacted {
        var copy = text
        return copy.withUTF8 { utf8 in
            let bytes = Array(utf8)
            var edits = RedactionEdits(bytes[...])
            TextRedactionScanner(redactor: self, field: field).scan(bytes.indices, &edits)
            return edits.changed
                ? Redacted(text: String(decoding: edits.result(), as: UTF8.self), redactedFields: edits.fields)
                : Redacted(text: text)
        }
    }
}
