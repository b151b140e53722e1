extension FieldReader {
    /// An integer member in `range`, or `defaultValue` when absent (and after reporting
    /// when invalid, so validation can go on).
    func int(_ key: String, in range: ClosedRange<Int>, default defaultValue: Int, _ diagnostics: inout Diagnostics) -> Int {
        guard let value = self[key] else { return defaultValue }
        return FieldReader.int(value, in: range, path: path(key), &diagnostics) ?? defaultValue
    }

    /// `value` as an integer in `range`, or nil after reporting why not.
    static func int(_ value: JSONValue, in range: ClosedRange<Int>, path: String, _ diagnostics: inout Diagnostics) -> Int? {
        if case .number(let number) = value, let exact = number.int64, let int = Int(exactly: exact), range.contains(int) {
            return int
        }
        let bounds = range.upperBound == Int.max ? ">= \(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
        diagnostics.add(path, "expected an integer \(bounds), got \(value.rendered)")
        return nil
    }

    /// An optional unsigned 64-bit member.
    func uint64(_ key: String, _ diagnostics: inout Diagnostics) -> UInt64? {
        guard let value = self[key] else { return nil }
        if case .number(let number) = value, let exact = number.uint64 { return exact }
        diagnostics.add(path(key), "expected an unsigned integer 0...\(UInt64.max), got \(value.rendered)")
        return nil
    }

    /// An optional string member; `what` describes the expected content in messages.
    func string(_ key: String, expected what: String = "a string", _ diagnostics: inout Diagnostics) -> String? {
        guard let value = self[key] else { return nil }
        if case .string(let text) = value { return text }
        diagnostics.add(path(key), "expected \(what), got \(value.rendered)")
        return nil
    }

    /// A required string member; reports "got nothing" when absent.
    func requiredString(_ key: String, expected what: String, _ diagnostics: inout Diagnostics) -> String? {
        guard self[key] != nil else {
            diagnostics.add(path(key), "expected \(what), got nothing")
            return nil
        }
        return string(key, expected: what, &diagnostics)
    }

    /// An optional object member, with its unknown keys reported.
    func object(_ key: String, known: [String], _ diagnostics: inout Diagnostics) -> FieldReader? {
        guard let value = self[key] else { return nil }
        return FieldReader(value, path: path(key), known: known, diagnostics: &diagnostics)
    }

    /// Reports `key`, when present, with `message`: for keys that the format reserves or
    /// that do not apply here (e.g. pins on an http upstream).
    func refuseReserved(_ key: String, _ message: String, _ diagnostics: inout Diagnostics) {
        if self[key] != nil { diagnostics.add(path(key), message) }
    }
}
