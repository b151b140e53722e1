/// The rows of the HTTP/2 fault → client table (`FaultClientTableH2Tests`), as observed with
/// curl 7.88.1, nghttp 1.52 and FoundationNetworking (libcurl 7.88.1 with nghttp2) on
/// Debian 12. Every stream is the first of a fresh connection (curl and URLSession: stream
/// 1; nghttp: 13, after its priority streams).
enum H2FaultTable {
    private static let notClosedCleanly = "HTTP/2 stream 1 was not closed cleanly: "

    static let cases: [H2FaultCase] = [
        H2FaultCase(
            label: "`status` 503 + `Retry-After: 5` + HTML body", route: "st503",
            fault: #"{"status": {"code": 503, "headers": {"Retry-After": "5"}, "body": "<html>down</html>", "content_type": "text/html"}}"#,
            path: "/json", curlExit: 0, curlStatus: 503, curlBytes: 17,
            nghttp: ":status 503, 17 DATA bytes", session: .response(status: 503, bytes: 17), marker: "st503/status",
            field: ("retry-after", "5")),
        H2FaultCase(
            label: "`status` 500 with an HTML page", route: "st500",
            fault: #"{"status": {"code": 500, "body": "<html><body><h1>Internal Server Error</h1></body></html>", "content_type": "text/html"}}"#,
            path: "/json", curlExit: 0, curlStatus: 500, curlBytes: 56,
            nghttp: ":status 500, 56 DATA bytes", session: .response(status: 500, bytes: 56), marker: "st500/status"),
        H2FaultCase(
            label: "`reset` (before the response; RST_STREAM, default code)", route: "reset",
            fault: #"{"reset": {}}"#, path: "/json",
            curlExit: 92, curlMessage: notClosedCleanly + "INTERNAL_ERROR (err 2)", curlStatus: 0,
            nghttp: "recv RST_STREAM INTERNAL_ERROR", session: .error(code: -1, message: notClosedCleanly + "INTERNAL_ERROR (err 2)"),
            recordError: ("INTERNAL_ERROR", "RST_STREAM")),
        H2FaultCase(
            label: "`reset` `error_code: \"ENHANCE_YOUR_CALM\"`", route: "resetcode",
            fault: #"{"reset": {"error_code": "ENHANCE_YOUR_CALM"}}"#, path: "/json",
            curlExit: 92, curlMessage: notClosedCleanly + "ENHANCE_YOUR_CALM (err 11)", curlStatus: 0,
            nghttp: "recv RST_STREAM ENHANCE_YOUR_CALM",
            session: .error(code: -1, message: notClosedCleanly + "ENHANCE_YOUR_CALM (err 11)"),
            recordError: ("ENHANCE_YOUR_CALM", "RST_STREAM")),
        H2FaultCase(
            label: "`reset` `after_bytes: 1000`", route: "reset1k",
            fault: #"{"reset": {"after_bytes": 1000}}"#, path: "/bytes/5000",
            curlExit: 92, curlMessage: notClosedCleanly + "INTERNAL_ERROR (err 2)", curlStatus: 200, curlBytes: 1000,
            nghttp: ":status 200, recv RST_STREAM INTERNAL_ERROR, 1000 DATA bytes",
            session: .error(code: -1, message: notClosedCleanly + "INTERNAL_ERROR (err 2)"),
            recordError: ("INTERNAL_ERROR", "RST_STREAM"), marker: "reset1k/reset"),
        H2FaultCase(
            label: "`close` (before the response: RST_STREAM CANCEL)", route: "close",
            fault: #"{"close": {}}"#, path: "/json",
            curlExit: 92, curlMessage: notClosedCleanly + "CANCEL (err 8)", curlStatus: 0,
            nghttp: "recv RST_STREAM CANCEL", session: .error(code: -1, message: notClosedCleanly + "CANCEL (err 8)"),
            recordError: ("CANCEL", "RST_STREAM")),
        H2FaultCase(
            label: "`close` `after_bytes: 1000` (END_STREAM short of content-length)", route: "close1k",
            fault: #"{"close": {"after_bytes": 1000}}"#, path: "/bytes/5000",
            curlExit: 92, curlMessage: notClosedCleanly + "PROTOCOL_ERROR (err 1)", curlStatus: 200, curlBytes: 0,
            nghttp: ":status 200, send RST_STREAM PROTOCOL_ERROR, 0 DATA bytes",
            session: .error(code: -1, message: notClosedCleanly + "PROTOCOL_ERROR (err 1)"), marker: "close1k/close",
            curlHeadMayBeLost: true),
        H2FaultCase(
            label: "`hang` (client timeout 2 s)", route: "hang",
            fault: #"{"hang": {}}"#, path: "/json", timeout: 2,
            curlExit: 28, curlMessage: "Operation timed out after", curlStatus: 0, seconds: 1.9...10,
            nghttp: "timeout", session: .error(code: -1001, message: "NSURLErrorDomain error -1001")),
        H2FaultCase(
            label: "`hang` `ms: 300, then: \"reset\"`", route: "hangreset",
            fault: #"{"hang": {"ms": 300, "then": "reset"}}"#, path: "/json",
            curlExit: 92, curlMessage: notClosedCleanly + "INTERNAL_ERROR (err 2)", curlStatus: 0, seconds: 0.29...3,
            nghttp: "recv RST_STREAM INTERNAL_ERROR", session: .error(code: -1, message: notClosedCleanly + "INTERNAL_ERROR (err 2)"),
            recordError: ("INTERNAL_ERROR", "RST_STREAM")),
        H2FaultCase(
            label: "`delay` 200", route: "delay",
            fault: #"{"delay": 200}"#, path: "/bytes/100",
            curlExit: 0, curlStatus: 200, curlBytes: 100, seconds: 0.195...3,
            nghttp: ":status 200, 100 DATA bytes", session: .response(status: 200, bytes: 100), marker: "delay/delay"),
        H2FaultCase(
            label: "`throttle` 100 000 B/s down", route: "throttle",
            fault: #"{"throttle": {"down_bytes_per_second": 100000}}"#, path: "/bytes/100000",
            curlExit: 0, curlStatus: 200, curlBytes: 100_000, seconds: 0.85...4,
            nghttp: ":status 200, 100000 DATA bytes", session: .response(status: 200, bytes: 100_000), marker: "throttle/throttle"),
        H2FaultCase(
            label: "`truncate` `keep_bytes: 100` (END_STREAM short of content-length)", route: "truncate",
            fault: #"{"truncate": {"keep_bytes": 100}}"#, path: "/bytes/5000",
            curlExit: 92, curlMessage: notClosedCleanly + "PROTOCOL_ERROR (err 1)", curlStatus: 200, curlBytes: 0,
            nghttp: ":status 200, send RST_STREAM PROTOCOL_ERROR, 0 DATA bytes",
            session: .error(code: -1, message: notClosedCleanly + "PROTOCOL_ERROR (err 1)"), marker: "truncate/truncate",
            curlHeadMayBeLost: true),
        H2FaultCase(
            label: "`corrupt` `malformed_json`", route: "badjson",
            fault: #"{"corrupt": {"mode": "malformed_json"}}"#, path: "/json",
            curlExit: 0, curlStatus: 200, curlBytes: 293,
            nghttp: ":status 200, 293 DATA bytes", session: .response(status: 200, bytes: 293), marker: "badjson/corrupt"),
        H2FaultCase(
            label: "`corrupt` `garbage_then_close` (`:status: x0x`)", route: "garbage",
            fault: #"{"corrupt": {"mode": "garbage_then_close"}}"#, path: "/json",
            curlExit: 92, curlMessage: notClosedCleanly + "PROTOCOL_ERROR (err 1)", curlStatus: 0,
            nghttp: "invalid :status, send RST_STREAM PROTOCOL_ERROR",
            session: .error(code: -1, message: notClosedCleanly + "PROTOCOL_ERROR (err 1)")),
        H2FaultCase(
            label: "`corrupt` `bad_chunk_framing` (a 200, part of a body, RST_STREAM)", route: "badchunk",
            fault: #"{"corrupt": {"mode": "bad_chunk_framing"}}"#, path: "/bytes/5000",
            curlExit: 92, curlMessage: notClosedCleanly + "PROTOCOL_ERROR (err 1)", curlStatus: 200, curlBytes: 6,
            nghttp: ":status 200, recv RST_STREAM PROTOCOL_ERROR, 6 DATA bytes",
            session: .error(code: -1, message: notClosedCleanly + "PROTOCOL_ERROR (err 1)"),
            recordError: ("PROTOCOL_ERROR", "RST_STREAM"), marker: "badchunk/corrupt"),
        H2FaultCase(
            label: "`rewrite` status 500, add `X-Rewritten`", route: "rewrite",
            fault: #"{"rewrite": {"status": 500, "add_headers": {"X-Rewritten": "yes"}}}"#, path: "/bytes/100",
            curlExit: 0, curlStatus: 500, curlBytes: 100,
            nghttp: ":status 500, 100 DATA bytes", session: .response(status: 500, bytes: 100), marker: "rewrite/rewrite",
            field: ("x-rewritten", "yes")),
        H2FaultCase(
            label: "`profile` `\"3g\"`", route: "p3g",
            fault: #"{"profile": "3g"}"#, path: "/bytes/50000",
            curlExit: 0, curlStatus: 200, curlBytes: 50_000, seconds: 0.6...3,
            nghttp: ":status 200, 50000 DATA bytes", session: .response(status: 200, bytes: 50_000), marker: "p3g/profile"),
        H2FaultCase(
            label: "`rst_stream` (default `REFUSED_STREAM`: safe to retry)", route: "refused",
            fault: #"{"rst_stream": {}}"#, path: "/json",
            curlExit: 56, curlMessage: "Connection died, tried 5 times before giving up", curlStatus: 0,
            nghttp: "recv RST_STREAM REFUSED_STREAM",
            session: .error(code: -1, message: "Connection died, tried 5 times before giving up"),
            attempts: .init(curl: 6, nghttp: 1, session: 6), recordError: ("REFUSED_STREAM", "RST_STREAM")),
        H2FaultCase(
            label: "`rst_stream` `error_code: \"CANCEL\"`", route: "rstcancel",
            fault: #"{"rst_stream": {"error_code": "CANCEL"}}"#, path: "/json",
            curlExit: 92, curlMessage: notClosedCleanly + "CANCEL (err 8)", curlStatus: 0,
            nghttp: "recv RST_STREAM CANCEL", session: .error(code: -1, message: notClosedCleanly + "CANCEL (err 8)"),
            recordError: ("CANCEL", "RST_STREAM")),
        H2FaultCase(
            label: "`goaway` graceful (notice, the answer, then the final GOAWAY)", route: "drain",
            fault: #"{"goaway": {}}"#, path: "/bytes/1000",
            curlExit: 0, curlStatus: 200, curlBytes: 1000,
            nghttp: "recv GOAWAY NO_ERROR last_stream_id=2147483647, :status 200, 1000 DATA bytes",
            session: .response(status: 200, bytes: 1000), marker: "drain/goaway"),
        H2FaultCase(
            label: "`goaway` `mode: \"immediate\"` (default `INTERNAL_ERROR`)", route: "goaway",
            fault: #"{"goaway": {"mode": "immediate"}}"#, path: "/json",
            curlExit: 18, curlMessage: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream", curlStatus: 0,
            nghttp: "recv GOAWAY INTERNAL_ERROR last_stream_id=13",
            session: .error(code: -1, message: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream"),
            recordError: ("INTERNAL_ERROR", "GOAWAY")),
        H2FaultCase(
            label: "`goaway` `mode: \"immediate\", error_code: \"ENHANCE_YOUR_CALM\"`", route: "calm",
            fault: #"{"goaway": {"mode": "immediate", "error_code": "ENHANCE_YOUR_CALM"}}"#, path: "/json",
            curlExit: 18, curlMessage: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream", curlStatus: 0,
            nghttp: "recv GOAWAY ENHANCE_YOUR_CALM last_stream_id=13",
            session: .error(code: -1, message: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream"),
            recordError: ("ENHANCE_YOUR_CALM", "GOAWAY")),
    ]

    /// The table as docs/fault-table.md holds it.
    static var markdown: String {
        ([H2FaultCase.markdownHeader] + cases.map(\.markdownRow)).joined(separator: "\n") + "\n"
    }
}
