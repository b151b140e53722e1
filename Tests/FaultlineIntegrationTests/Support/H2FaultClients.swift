import Foundation
import FaultlineTestSupport

/// What `curl --http2` reported for one request: exit code and message, the HTTP version and
/// status it saw, body bytes, time, connections opened (retries open new ones) and the
/// `X-Faultline-Fault` marker.
struct H2CurlResult: Sendable, CustomStringConvertible {
    let exitCode: Int32
    /// curl's message without its `curl: (N) ` prefix; empty on success.
    let message: String
    let httpVersion: String
    let httpCode: Int
    let bytes: Int
    let seconds: Double
    let connects: Int
    let marker: String

    var description: String {
        "curl exit \(exitCode) \"\(message)\", HTTP/\(httpVersion) \(httpCode), \(bytes) bytes, \(seconds) s, "
            + "\(connects) connection(s), X-Faultline-Fault \"\(marker)\""
    }
}

/// What nghttp printed about its one stream, in the order it happened: the GOAWAY and
/// RST_STREAM frames (with their error codes), the status, a malformed head, a timeout, and
/// the DATA bytes received.
struct H2NghttpResult: Sendable, CustomStringConvertible {
    let status: Int32
    let summary: String
    let output: String

    var description: String { "nghttp exit \(status): \(summary)" }
}

enum H2FaultClients {
    /// `curl --http2` trusting `root`, over TLS.
    static func curl(_ url: String, root: String, maxTime: Int) async throws -> H2CurlResult {
        let directory = try TemporaryDirectory()
        let format = "FLW%{http_version}|%{http_code}|%{size_download}|%{time_total}|%{num_connects}|%header{x-faultline-fault}"
        let result = try await Curl.run(["--http2", "--cacert", root, "-o", directory.path("body"), "-w", format, url], maxTime: maxTime)
        let fields = (result.text.components(separatedBy: "FLW").last ?? "").split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6 else { throw TestFailure("unexpected curl -w output \"\(result.text)\"; stderr \(result.stderr)") }
        var message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        if message.hasPrefix("curl: ("), let range = message.range(of: ") ") { message = String(message[range.upperBound...]) }
        return H2CurlResult(exitCode: result.exitCode, message: message, httpVersion: fields[0], httpCode: Int(fields[1]) ?? -1,
                            bytes: Int(fields[2]) ?? -1, seconds: Double(fields[3]) ?? -1, connects: Int(fields[4]) ?? -1,
                            marker: fields[5])
    }

    /// `nghttp -nv` (TLS, ALPN h2; nghttp does not verify the certificate) with a timeout.
    static func nghttp(_ url: String, timeout: Int) async throws -> H2NghttpResult {
        let result = try await Blocking.run {
            try Command.launch(["nghttp", "-nv", "--timeout=\(timeout)", url], timeout: .seconds(timeout + 20))
        }
        return H2NghttpResult(status: result.status, summary: summarize(result.output + result.error), output: result.output)
    }

    /// `nghttp -nv` with several paths of `stack`, all on one connection.
    static func nghttp2(_ stack: H2FaultStack, _ paths: [String], timeout: Int = 5) async throws -> H2NghttpResult {
        let result = try await Blocking.run {
            try Command.launch(["nghttp", "-nv", "--timeout=\(timeout)"] + paths.map { stack.url($0) }, timeout: .seconds(timeout + 20))
        }
        return H2NghttpResult(status: result.status, summary: summarize(result.output + result.error), output: result.output)
    }

    /// The events of nghttp's verbose output that tell what happened to the stream.
    static func summarize(_ output: String) -> String {
        let lines = output.components(separatedBy: "\n")
        var events: [String] = []
        var goAwaySeen = false
        var status: String?
        var dataBytes = 0
        for (index, line) in lines.enumerated() {
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            if line.contains("recv GOAWAY frame"), !goAwaySeen {
                // The first GOAWAY only: a graceful one's final frame may or may not beat the close.
                goAwaySeen = true
                events.append("recv GOAWAY \(field("error_code", in: next)) last_stream_id=\(field("last_stream_id", in: next))")
            } else if line.contains("recv RST_STREAM frame") {
                events.append("recv RST_STREAM \(field("error_code", in: next))")
            } else if line.contains("send RST_STREAM frame") {
                events.append("send RST_STREAM \(field("error_code", in: next))")
            } else if let range = line.range(of: ":status: "), status == nil {
                status = String(line[range.upperBound...])
                events.append(":status \(status ?? "")")
            } else if line.contains("Invalid HTTP header field was received"), line.contains("[:status]") {
                events.append("invalid :status")
            } else if line.contains("[ERROR] Timeout") {
                events.append("timeout")
            } else if line.contains("recv DATA frame"), let length = Int(field("length", in: line)) {
                dataBytes += length
            }
        }
        if status != nil { events.append("\(dataBytes) DATA bytes") }
        return events.joined(separator: ", ")
    }

    /// `name=VALUE` in an nghttp frame line, without the hex part (`ENHANCE_YOUR_CALM(0x0b)`).
    private static func field(_ name: String, in line: String) -> String {
        guard let range = line.range(of: "\(name)=") else { return "?" }
        let value = line[range.upperBound...].prefix { $0 != "," && $0 != ")" && $0 != ">" && $0 != "(" }
        return String(value)
    }

    /// URLSession over h2 (FoundationNetworking, libcurl underneath) trusting `root` through a
    /// private trust store.
    static func urlSession(_ url: String, root: String, timeout: Int) async throws -> TrustedURLSession.Outcome {
        let outcomes = try await Blocking.run { try TrustedURLSession.run(url, trusting: root, timeoutSeconds: timeout) }
        guard let outcome = outcomes.first else { throw TestFailure("no URLSession outcome") }
        return outcome
    }
}
