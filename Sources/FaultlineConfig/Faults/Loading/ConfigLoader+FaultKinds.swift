extension ConfigLoader {
    /// The payload of kind `keyword` in a fault object, or nil after reporting.
    static func readFaultKind(
        _ keyword: String, _ fault: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> FaultKind? {
        let path = fault.path(keyword)
        guard let value = fault[keyword] else { return nil }
        if keyword == "status", case .number = value {
            return statusCode(value, path: path, &diagnostics).map { .status(StatusFault(code: $0)) }
        }
        if keyword == "delay", case .number = value {
            return FieldReader.int(value, in: faultMsRange, path: path, &diagnostics)
                .map { .delay(DelayFault(.fixed(ms: $0))) }
        }
        if keyword == "profile" {
            return readProfile(value, path: path, &diagnostics).map(FaultKind.profile)
        }
        // Both forms are named, so "200ms" or "503" says what would have been taken.
        if keyword == "delay" || keyword == "status", !isObject(value) {
            let forms = keyword == "delay"
                ? "milliseconds as an integer (200) or an object ({\"ms\": 200}, {\"uniform\": {\"min_ms\": 100, \"max_ms\": 300}}, {\"lognormal\": …})"
                : "a status code as an integer (503) or an object ({\"code\": 503, \"headers\": …, \"body\": …})"
            diagnostics.add(path, "expected \(forms), got \(value.rendered)")
            return nil
        }
        let known = knownKeys(of: keyword)
        guard let object = FieldReader(value, path: path, known: known, diagnostics: &diagnostics) else { return nil }
        let errorsBefore = diagnostics.errors.count
        let kind: FaultKind?
        switch keyword {
        case "delay": kind = readDelay(object, &diagnostics).map(FaultKind.delay)
        case "status": kind = readStatus(object, context, &diagnostics).map(FaultKind.status)
        case "reset":
            kind = .reset(ResetFault(
                afterBytes: object.int("after_bytes", in: 0...Int.max, default: 0, &diagnostics),
                errorCode: errorCode(object, "error_code", default: ResetFault.defaultErrorCode, &diagnostics)))
        case "rst_stream":
            kind = .rstStream(RSTStreamFault(
                errorCode: errorCode(object, "error_code", default: RSTStreamFault.defaultErrorCode, &diagnostics)))
        case "goaway": kind = readGoAway(object, &diagnostics).map(FaultKind.goAway)
        case "close": kind = .close(CloseFault(afterBytes: object.int("after_bytes", in: 0...Int.max, default: 0, &diagnostics)))
        case "hang":
            kind = .hang(HangFault(
                ms: optionalInt(object, "ms", in: faultMsRange, &diagnostics),
                then: object.choice("then", default: HangFault.Ending.close, &diagnostics)))
        case "throttle": kind = readThrottle(object, &diagnostics).map(FaultKind.throttle)
        case "truncate":
            kind = object["keep_bytes"] == nil
                ? nil
                : .truncate(TruncateFault(keepBytes: object.int("keep_bytes", in: 0...Int.max, default: 0, &diagnostics)))
            if object["keep_bytes"] == nil {
                diagnostics.add(object.path("keep_bytes"), "expected an integer >= 0, got nothing")
            }
        case "corrupt":
            if object["mode"] == nil {
                diagnostics.add(object.path("mode"), "expected \(choices(CorruptFault.Mode.self)), got nothing")
            }
            kind = .corrupt(CorruptFault(mode: object.choice("mode", default: CorruptFault.Mode.malformedJSON, &diagnostics)))
        default: kind = readRewrite(object, &diagnostics).map(FaultKind.rewrite)
        }
        return diagnostics.errors.count == errorsBefore ? kind : nil
    }

    private static func knownKeys(of keyword: String) -> [String] {
        switch keyword {
        case "delay": FaultConfigKeys.delay
        case "status": FaultConfigKeys.status
        case "reset": FaultConfigKeys.reset
        case "rst_stream": FaultConfigKeys.rstStream
        case "goaway": FaultConfigKeys.goAway
        case "close": FaultConfigKeys.close
        case "hang": FaultConfigKeys.hang
        case "throttle": FaultConfigKeys.throttle
        case "truncate": FaultConfigKeys.truncate
        case "corrupt": FaultConfigKeys.corrupt
        default: FaultConfigKeys.rewrite
        }
    }

    /// The choices of an enum as messages list them: "a", "b" or "c".
    static func choices<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type) -> String where Choice.RawValue == String {
        let names = Choice.allCases.map { "\"\($0.rawValue)\"" }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    private static func readProfile(_ value: JSONValue, path: String, _ diagnostics: inout Diagnostics) -> NetworkProfile? {
        if case .string(let name) = value, let profile = NetworkProfile.named(name) { return profile }
        let names = NetworkProfile.presets.map { "\"\($0.name)\"" }
        let listed = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        diagnostics.add(path, "expected \(listed), got \(value.rendered)")
        return nil
    }

    /// `goaway`: an error code only for `"immediate"` (a graceful GOAWAY carries NO_ERROR).
    private static func readGoAway(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> GoAwayFault? {
        switch object.choice("mode", default: GoAwayFault.Mode.graceful, &diagnostics) {
        case .graceful:
            object.refuseReserved("error_code", #"applies only to mode "immediate" (a graceful GOAWAY carries NO_ERROR)"#,
                                  &diagnostics)
            return .graceful
        case .immediate:
            return .immediate(errorCode(object, "error_code", default: GoAwayFault.defaultImmediateErrorCode, &diagnostics))
        }
    }

    private static func readThrottle(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> ThrottleFault? {
        let down = object.int("down_bytes_per_second", in: 0...Int.max, default: 0, &diagnostics)
        let up = object.int("up_bytes_per_second", in: 0...Int.max, default: 0, &diagnostics)
        let chunk = object.int("chunk_bytes", in: 1...1_048_576, default: 1024, &diagnostics)
        guard down > 0 || up > 0 else {
            if object["down_bytes_per_second"] != nil || object["up_bytes_per_second"] != nil || object.fields.isEmpty {
                diagnostics.add(object.path, "expected down_bytes_per_second or up_bytes_per_second above 0, got neither")
            }
            return nil
        }
        return ThrottleFault(downBytesPerSecond: down, upBytesPerSecond: up, chunkBytes: chunk)
    }

    private static func readRewrite(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> RewriteFault? {
        let status = object["status"].flatMap { statusCode($0, path: object.path("status"), &diagnostics) }
        let add = object["add_headers"].map { readHeaders($0, path: object.path("add_headers"), &diagnostics) } ?? []
        let remove = object["remove_headers"].map { readHeaderNames($0, path: object.path("remove_headers"), &diagnostics) } ?? []
        if object["status"] == nil, add.isEmpty, remove.isEmpty,
           object["add_headers"].map({ $0 == .object([:]) }) ?? true,
           object["remove_headers"].map({ $0 == .array([]) }) ?? true {
            diagnostics.add(object.path, "expected at least one of status, add_headers, remove_headers, got \(JSONValue.object(object.fields).rendered)")
            return nil
        }
        return RewriteFault(status: status, addHeaders: add, removeHeaders: remove)
    }

    private static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }
}
