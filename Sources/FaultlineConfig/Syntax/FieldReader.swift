/// A JSON object under validation: it knows its path and reports unknown keys (with a
/// "did you mean") as soon as it is created, so typos never pass silently.
struct FieldReader {
    /// Path of this object; empty for the document root.
    let path: String
    /// The object's members.
    let fields: [String: JSONValue]

    /// Wraps `value` if it is an object, reporting a type error or unknown keys otherwise.
    init?(_ value: JSONValue, path: String, known: [String], diagnostics: inout Diagnostics) {
        guard case .object(let fields) = value else {
            let what = path.isEmpty ? "a JSON object at the top level" : "an object"
            diagnostics.add(path, "expected \(what), got \(value.rendered)")
            return nil
        }
        self.path = path
        self.fields = fields
        // Sorted so the error order is stable; JSONSerialization forgets member order.
        for key in fields.keys.sorted() where !known.contains(key) {
            let keyPath = Diagnostics.join(path, key)
            if let suggestion = EditDistance.suggestion(for: key, among: known) {
                diagnostics.add(keyPath, "unknown key; did you mean \"\(suggestion)\"?")
            } else {
                diagnostics.add(keyPath, "unknown key (known: \(known.joined(separator: ", ")))")
            }
        }
    }

    /// The member `key`, if present.
    subscript(key: String) -> JSONValue? {
        fields[key]
    }

    /// The path of member `key`.
    func path(_ key: String) -> String {
        Diagnostics.join(path, key)
    }
}
