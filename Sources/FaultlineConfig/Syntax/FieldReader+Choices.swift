extension FieldReader {
    /// A boolean member, or `defaultValue` when absent or invalid (after reporting).
    func bool(_ key: String, default defaultValue: Bool, _ diagnostics: inout Diagnostics) -> Bool {
        guard let value = self[key] else { return defaultValue }
        if case .bool(let flag) = value { return flag }
        diagnostics.add(path(key), "expected true or false, got \(value.rendered)")
        return defaultValue
    }

    /// One of `choices` (the raw values of an enum), or `defaultValue` when absent or
    /// invalid (after reporting, listing the choices).
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, default defaultValue: Choice, _ diagnostics: inout Diagnostics
    ) -> Choice where Choice.RawValue == String {
        guard let value = self[key] else { return defaultValue }
        if case .string(let text) = value, let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map { "\"\($0.rawValue)\"" }
        let listed = names.count <= 2
            ? names.joined(separator: " or ")
            : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        diagnostics.add(path(key), "expected \(listed), got \(value.rendered)")
        return defaultValue
    }
}
