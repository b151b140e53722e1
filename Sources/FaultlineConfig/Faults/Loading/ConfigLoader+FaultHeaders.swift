extension ConfigLoader {
    /// The top-level `fault_headers`: header names are lowercase tokens and differ.
    static func readFaultHeaders(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> FaultHeadersConfig {
        let defaults = FaultHeadersConfig()
        guard let object = top.object("fault_headers", known: FaultConfigKeys.faultHeaders, &diagnostics) else {
            return defaults
        }
        let enabled = object.bool("enabled", default: defaults.enabled, &diagnostics)
        let delay = headerName(object, "delay_header", default: defaults.delayHeader, &diagnostics)
        let status = headerName(object, "status_header", default: defaults.statusHeader, &diagnostics)
        if delay == status {
            diagnostics.add(object.path("status_header"), "expected a header name other than delay_header, got \(JSONValue.quoted(status))")
        }
        let mark = object.bool("mark_responses", default: defaults.markResponses, &diagnostics)
        return FaultHeadersConfig(enabled: enabled, delayHeader: delay, statusHeader: status, markResponses: mark)
    }

    private static func headerName(
        _ object: FieldReader, _ key: String, default defaultValue: String, _ diagnostics: inout Diagnostics
    ) -> String {
        let what = "a lowercase header name"
        guard let text = object.string(key, expected: what, &diagnostics) else { return defaultValue }
        guard HTTPToken.isToken(text), text == text.lowercased() else {
            diagnostics.add(object.path(key), "expected \(what), got \(JSONValue.quoted(text))")
            return defaultValue
        }
        return text
    }
}
