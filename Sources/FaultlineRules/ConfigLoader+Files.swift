extension ConfigLoader {
    /// A file path member (certificate, key, CA file): resolved against the config file's
    /// directory and, when the context asks, checked to be readable. Nil after reporting.
    static func readFile(
        _ object: FieldReader, _ key: String, required: Bool, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> String? {
        let what = "a file path"
        let value = required
            ? object.requiredString(key, expected: what, &diagnostics)
            : object.string(key, expected: what, &diagnostics)
        guard let text = value else { return nil }
        guard !text.isEmpty else {
            diagnostics.add(object.path(key), "expected \(what), got \"\"")
            return nil
        }
        let resolved = context.resolve(text)
        if context.checkFiles, let problem = ConfigFileCheck.problem(readingFileAt: resolved) {
            diagnostics.add(object.path(key), "cannot read \(JSONValue.quoted(text)): \(problem)")
            return nil
        }
        return resolved
    }
}
