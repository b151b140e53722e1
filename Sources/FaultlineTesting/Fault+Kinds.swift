/// Every fault kind of the config format (docs/config.md, "Fault kinds"). Values are not
/// checked here: the proxy checks them and `add` throws `FaultlineError.refused` naming
/// the field.
extension Fault {
    /// Answers `code` (100...599) without calling the upstream (or, with `callUpstream`,
    /// replaces the upstream's answer). `retryAfter` (seconds) becomes a `Retry-After`
    /// header; `headers` may not set Content-Length, Transfer-Encoding or Connection.
    public static func status(_ code: Int, retryAfter: Int? = nil, body: String? = nil,
                              contentType: String? = nil, headers: [String: String] = [:],
                              callUpstream: Bool = false) -> Fault {
        var fields: [String: JSONValue] = ["code": .int(code)]
        var allHeaders = headers
        if let retryAfter { allHeaders["Retry-After"] = String(retryAfter) }
        if !allHeaders.isEmpty { fields["headers"] = .strings(allHeaders) }
        if let body { fields["body"] = .string(body) }
        if let contentType { fields["content_type"] = .string(contentType) }
        if callUpstream { fields["upstream"] = .bool(true) }
        return Fault("status", fields)
    }

    /// Waits `ms` milliseconds (0...86400000) before contacting the upstream, or before
    /// the first response byte with `phase: .firstByte`.
    public static func delay(ms: Int, phase: DelayPhase = .request) -> Fault {
        delayFault(["ms": .int(ms)], phase: phase)
    }

    /// Waits `duration` (whole milliseconds).
    public static func delay(_ duration: Duration, phase: DelayPhase = .request) -> Fault {
        delay(ms: duration.wholeMilliseconds, phase: phase)
    }

    /// Waits a uniformly drawn number of milliseconds in `range` (inclusive).
    public static func delay(uniformMs range: ClosedRange<Int>, phase: DelayPhase = .request) -> Fault {
        delayFault(["uniform": .object(["min_ms": .int(range.lowerBound), "max_ms": .int(range.upperBound)])], phase: phase)
    }

    /// Waits a lognormally drawn time: median `medianMs` (≥ 1), `sigma` (0...10), clamped to
    /// `maxMs` (default 10 × median).
    public static func delay(lognormalMedianMs medianMs: Int, sigma: Double, maxMs: Int? = nil,
                             phase: DelayPhase = .request) -> Fault {
        var fields: [String: JSONValue] = ["median_ms": .int(medianMs), "sigma": .double(sigma)]
        if let maxMs { fields["max_ms"] = .int(maxMs) }
        return delayFault(["lognormal": .object(fields)], phase: phase)
    }

    private static func delayFault(_ fields: [String: JSONValue], phase: DelayPhase) -> Fault {
        var all = fields
        if phase != .request { all["phase"] = .string(phase.rawValue) }
        return Fault("delay", all)
    }

    /// Sends nothing: for `ms` milliseconds, then ends as `then` says; without `ms`, until
    /// the client gives up (a client timeout).
    public static func hang(ms: Int? = nil, then ending: HangEnding = .close) -> Fault {
        var fields: [String: JSONValue] = [:]
        if let ms { fields["ms"] = .int(ms) }
        if ending != .close { fields["then"] = .string(ending.rawValue) }
        return Fault("hang", fields)
    }

    /// Paces the download at `kbps` kilobits per second (1 kbit/s = 125 bytes/s).
    public static func throttle(kbps: Int) -> Fault {
        throttle(downBytesPerSecond: kbps.multipliedReportingOverflow(by: 125).partialValue)
    }

    /// Paces the transfer in bytes per second each way (0 = unlimited; at least one above 0),
    /// in chunks of `chunkBytes` (1...1048576; the proxy's default is 1024).
    public static func throttle(downBytesPerSecond: Int, upBytesPerSecond: Int = 0, chunkBytes: Int? = nil) -> Fault {
        var fields: [String: JSONValue] = [:]
        if downBytesPerSecond != 0 { fields["down_bytes_per_second"] = .int(downBytesPerSecond) }
        if upBytesPerSecond != 0 { fields["up_bytes_per_second"] = .int(upBytesPerSecond) }
        if let chunkBytes { fields["chunk_bytes"] = .int(chunkBytes) }
        return Fault("throttle", fields)
    }

    /// Resets the connection (HTTP/2: the stream, with `errorCode`) before the response, or
    /// after `afterBytes` bytes of it.
    public static func reset(afterBytes: Int? = nil, errorCode: ErrorCode? = nil) -> Fault {
        var fields: [String: JSONValue] = [:]
        if let afterBytes { fields["after_bytes"] = .int(afterBytes) }
        if let errorCode { fields["error_code"] = errorCode.json }
        return Fault("reset", fields)
    }

    /// Closes the connection (FIN) before the response (an empty reply), or after
    /// `afterBytes` bytes of it.
    public static func close(afterBytes: Int? = nil) -> Fault {
        Fault("close", afterBytes.map { ["after_bytes": .int($0)] } ?? [:])
    }

    /// Keeps the declared length but sends only `keepBytes` of the body, then closes.
    public static func truncate(keepBytes: Int) -> Fault {
        Fault("truncate", ["keep_bytes": .int(keepBytes)])
    }

    /// Corrupts the response so the client fails to parse or decode it.
    public static func corrupt(_ mode: CorruptMode) -> Fault {
        Fault("corrupt", ["mode": .string(mode.rawValue)])
    }

    /// Changes the upstream's answer: its status, headers added (or replaced), headers
    /// removed. At least one must be given.
    public static func rewrite(status: Int? = nil, addHeaders: [String: String] = [:],
                               removeHeaders: [String] = []) -> Fault {
        var fields: [String: JSONValue] = [:]
        if let status { fields["status"] = .int(status) }
        if !addHeaders.isEmpty { fields["add_headers"] = .strings(addHeaders) }
        if !removeHeaders.isEmpty { fields["remove_headers"] = .array(removeHeaders.map { .string($0) }) }
        return Fault("rewrite", fields)
    }

    /// A bad network: bandwidth, latency and loss of a built-in profile.
    public static func profile(_ profile: NetworkProfile) -> Fault {
        Fault("profile", value: .string(profile.rawValue))
    }

    /// Refuses the request on its head, before the upstream is contacted: HTTP/1 resets
    /// the connection, HTTP/2 resets the stream with `errorCode` (default REFUSED_STREAM).
    public static func rstStream(errorCode: ErrorCode? = nil) -> Fault {
        Fault("rst_stream", errorCode.map { ["error_code": $0.json] } ?? [:])
    }

    /// Ends the connection: gracefully after this response (`immediate: false`, HTTP/1
    /// `Connection: close`, HTTP/2 GOAWAY NO_ERROR), or at once before any response with
    /// `errorCode` (immediate only; default INTERNAL_ERROR).
    public static func goAway(immediate: Bool = false, errorCode: ErrorCode? = nil) -> Fault {
        var fields: [String: JSONValue] = [:]
        if immediate { fields["mode"] = .string("immediate") }
        if let errorCode { fields["error_code"] = errorCode.json }
        return Fault("goaway", fields)
    }
}
