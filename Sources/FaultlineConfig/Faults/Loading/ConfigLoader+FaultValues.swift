extension ConfigLoader {
    /// Every `ms` of a fault: 0 up to one day.
    static let faultMsRange = 0...86_400_000

    /// `value` as a number, or nil when it is not one.
    static func double(_ value: JSONValue) -> Double? {
        guard case .number(let number) = value else { return nil }
        if let exact = number.int64 { return Double(exact) }
        return Double(number.text)
    }

    /// A number member in `range`, or nil (after reporting when present but invalid).
    static func number(
        _ object: FieldReader, _ key: String, in range: ClosedRange<Double>, _ diagnostics: inout Diagnostics
    ) -> Double? {
        guard let value = object[key] else { return nil }
        if let number = double(value), range.contains(number) { return number }
        diagnostics.add(object.path(key), "expected a number \(format(range.lowerBound))...\(format(range.upperBound)), got \(value.rendered)")
        return nil
    }

    private static func format(_ number: Double) -> String {
        if let integral = Int(exactly: number) { return String(integral) }
        return "\(number)"
    }

    /// An optional integer member in `range`; nil when absent or invalid (after reporting).
    static func optionalInt(
        _ object: FieldReader, _ key: String, in range: ClosedRange<Int>, _ diagnostics: inout Diagnostics
    ) -> Int? {
        guard let value = object[key] else { return nil }
        return FieldReader.int(value, in: range, path: object.path(key), &diagnostics)
    }

    /// `value` as an HTTP status code 100...599, or nil after reporting.
    static func statusCode(_ value: JSONValue, path: String, _ diagnostics: inout Diagnostics) -> Int? {
        if case .number(let number) = value, let exact = number.int64, (100...599).contains(exact) {
            return Int(exact)
        }
        diagnostics.add(path, "expected 100...599, got \(value.rendered)")
        return nil
    }

    /// Header fields from a JSON object of name → string (or integer) value, sorted by
    /// name. Framing headers, which the proxy sets itself, are refused.
    static func readHeaders(_ value: JSONValue, path: String, _ diagnostics: inout Diagnostics) -> [FaultHeader] {
        guard case .object(let fields) = value else {
            diagnostics.add(path, "expected an object of header name to value, got \(value.rendered)")
            return []
        }
        var headers: [FaultHeader] = []
        for name in fields.keys.sorted() {
            let fieldPath = Diagnostics.join(path, name)
            guard HTTPToken.isToken(name) else {
                diagnostics.add(fieldPath, "expected a header name (an HTTP token), got \(JSONValue.quoted(name))")
                continue
            }
            if framingHeaders.contains(name.lowercased()) {
                diagnostics.add(fieldPath, "the proxy sets Content-Length, Transfer-Encoding and Connection itself")
                continue
            }
            guard let field = fields[name], let text = headerValue(field) else {
                diagnostics.add(fieldPath, "expected a header value without control characters, got \(fields[name]?.rendered ?? "nothing")")
                continue
            }
            headers.append(FaultHeader(name: name, value: text))
        }
        return headers
    }

    /// Header names from a JSON array of tokens.
    static func readHeaderNames(_ value: JSONValue, path: String, _ diagnostics: inout Diagnostics) -> [String] {
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of header names, got \(value.rendered)")
            return []
        }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            if case .string(let name) = item, HTTPToken.isToken(name) {
                names.append(name)
            } else {
                diagnostics.add(Diagnostics.join(path, index), "expected a header name (an HTTP token), got \(item.rendered)")
            }
        }
        return names
    }

    /// Whether `text` can go in a header value: no control characters but tab.
    static func isHeaderText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
    }

    private static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    private static func headerValue(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): isHeaderText(text) ? text : nil
        case .number(let number): number.int64.map(String.init)
        default: nil
        }
    }
}
