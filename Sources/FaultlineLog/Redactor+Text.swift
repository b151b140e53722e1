extension Redactor {
    /// Free text (an error message, debug output) with secrets redacted: URL userinfo,
    /// `Bearer …`/`Basic …` credentials, and values after sensitive names followed by `=`
    /// or `:` (`token=…`, `"password": "…"`, `X-Api-Key: …`). Fields: `<field>.<name>`.
    public func redact(text: String, field: String = "text") -> Redacted {
        let (bytes, fields) = TextRedactionScanner(redactor: self, field: field).redact(Array(text.utf8))
        return fields.isEmpty ? Redacted(text: text) : Redacted(text: String(decoding: bytes, as: UTF8.self), redactedFields: fields)
    }
}
