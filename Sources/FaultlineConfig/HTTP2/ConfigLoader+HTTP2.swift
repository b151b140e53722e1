import FaultlineHTTP
extension ConfigLoader {
    /// The keys of the `http2` block, in the order messages list them.
    static let http2Keys = [
        "max_concurrent_streams", "initial_window_size", "connection_window_size", "max_header_list_size",
        "max_frame_size", "max_stream_resets", "max_continuations", "max_settings", "max_outbound_acks",
        "max_buffered_request_body",
    ]
    /// The keys of `http2.max_stream_resets`.
    static let http2ResetKeys = ["burst", "per_second"]

    /// The `http2` block, or the defaults when it is absent (or after reporting).
    static func readHTTP2(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> HTTP2Config {
        let defaults = HTTP2Config()
        guard let object = top.object("http2", known: http2Keys, &diagnostics) else { return defaults }
        let window = 1...HTTP2Config.maxWindowSize
        var resets = defaults.maxStreamResets
        if let limit = object.object("max_stream_resets", known: http2ResetKeys, &diagnostics) {
            resets = HTTP2ResetRateLimit(
                burst: limit.int("burst", in: 1...1_000_000, default: resets.burst, &diagnostics),
                perSecond: limit.int("per_second", in: 1...1_000_000, default: resets.perSecond, &diagnostics))
        }
        return HTTP2Config(
            maxConcurrentStreams: object.int(
                "max_concurrent_streams", in: 1...HTTP2Config.maxWindowSize, default: defaults.maxConcurrentStreams, &diagnostics),
            initialWindowSize: object.int("initial_window_size", in: window, default: defaults.initialWindowSize, &diagnostics),
            connectionWindowSize: object.int(
                "connection_window_size", in: 65535...HTTP2Config.maxWindowSize, default: defaults.connectionWindowSize, &diagnostics),
            maxHeaderListSize: object.int(
                "max_header_list_size", in: 1024...HTTP2Config.maxWindowSize, default: defaults.maxHeaderListSize, &diagnostics),
            maxFrameSize: object.int("max_frame_size", in: HTTP2Config.frameSizeRange, default: defaults.maxFrameSize, &diagnostics),
            maxStreamResets: resets,
            maxContinuations: object.int("max_continuations", in: 1...100_000, default: defaults.maxContinuations, &diagnostics),
            maxSettings: object.int("max_settings", in: 1...100_000, default: defaults.maxSettings, &diagnostics),
            maxOutboundAcks: object.int("max_outbound_acks", in: 1...1_000_000, default: defaults.maxOutboundAcks, &diagnostics),
            maxBufferedRequestBody: object.int("max_buffered_request_body", in: HTTP2Config.bufferedRequestBodyRange,
                                               default: defaults.maxBufferedRequestBody, &diagnostics))
    }

    /// An HTTP/2 error code member: a registered name in any case ("REFUSED_STREAM") or an
    /// integer 0...4294967295; `defaultValue` when absent or invalid (after reporting).
    static func errorCode(
        _ object: FieldReader, _ key: String, default defaultValue: HTTP2ErrorCode, _ diagnostics: inout Diagnostics
    ) -> HTTP2ErrorCode {
        guard let value = object[key] else { return defaultValue }
        return errorCode(value, path: object.path(key), &diagnostics) ?? defaultValue
    }

    /// `value` as an HTTP/2 error code, or nil after reporting (listing the names).
    static func errorCode(_ value: JSONValue, path: String, _ diagnostics: inout Diagnostics) -> HTTP2ErrorCode? {
        switch value {
        case .string(let name):
            if let code = HTTP2ErrorCode(name: name) { return code }
        case .number(let number):
            if let exact = number.int64, let code = UInt32(exactly: exact) { return HTTP2ErrorCode(rawValue: code) }
        default:
            break
        }
        let names = HTTP2ErrorCode.names.joined(separator: ", ")
        diagnostics.add(path, "expected an HTTP/2 error code (\(names), or an integer 0...\(UInt32.max)), got \(value.rendered)")
        return nil
    }
}
