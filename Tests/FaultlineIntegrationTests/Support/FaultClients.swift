import Foundation
import FaultlineTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What curl reported for one request through a fault: exit code and message, status,
/// body bytes received, its own timings, and the `X-Faultline-Fault` marker.
struct FaultCurlResult: Sendable, CustomStringConvertible {
    let exitCode: Int32
    /// curl's error message without the `curl: (N) ` prefix; empty on success.
    let message: String
    let httpCode: Int
    let sizeDownload: Int
    let timeTotal: Double
    let timeStartTransfer: Double
    let faultHeader: String
    let body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    var description: String {
        "curl exit \(exitCode) \"\(message)\", http \(httpCode), \(sizeDownload) bytes, "
            + "first byte \(timeStartTransfer) s, total \(timeTotal) s, X-Faultline-Fault \"\(faultHeader)\""
    }
}

enum FaultCurl {
    /// `curl -sS -m maxTime URL` with the body saved and the summary written by `-w`.
    static func get(_ url: String, maxTime: Int = 5, extra: [String] = []) async throws -> FaultCurlResult {
        let directory = try TemporaryDirectory()
        let bodyPath = directory.path("body")
        let format = "FLW%{http_code}|%{size_download}|%{time_total}|%{time_starttransfer}|%header{x-faultline-fault}"
        let result = try await Curl.run(extra + ["-o", bodyPath, "-w", format, url], maxTime: maxTime)
        let summary = result.text.components(separatedBy: "FLW").last ?? ""
        let fields = summary.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 5 else { throw TestFailure("unexpected curl -w output \"\(result.text)\"; stderr \(result.stderr)") }
        let body = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: bodyPath)))) ?? []
        var message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        if let range = message.range(of: ") ") , message.hasPrefix("curl: (") { message = String(message[range.upperBound...]) }
        return FaultCurlResult(exitCode: result.exitCode, message: message, httpCode: Int(fields[0]) ?? -1,
                               sizeDownload: Int(fields[1]) ?? -1, timeTotal: Double(fields[2]) ?? -1,
                               timeStartTransfer: Double(fields[3]) ?? -1, faultHeader: fields[4], body: body)
    }

    /// Many URLs in one curl process (one kept-alive connection), each transfer's status and
    /// time to first byte as curl measured it.
    static func sequence(_ urls: [String], maxTime: Int = 60, extra: [String] = []) async throws -> [(code: Int, firstByte: Double, total: Double, fault: String)] {
        let format = "\nFLW%{http_code}|%{time_starttransfer}|%{time_total}|%header{x-faultline-fault}\n"
        // One -w applies to every transfer; bodies go to stdout between the summaries.
        let arguments = extra + ["-w", format] + urls
        let result = try await Curl.run(arguments, maxTime: maxTime)
        guard result.exitCode == 0 else { throw TestFailure("curl exit \(result.exitCode): \(result.stderr)") }
        let rows = result.text.split(separator: "\n").filter { $0.hasPrefix("FLW") }.map { line in
            let fields = line.dropFirst(3).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (code: Int(fields[0]) ?? -1, firstByte: Double(fields[1]) ?? -1, total: Double(fields[2]) ?? -1,
                    fault: fields.count > 3 ? fields[3] : "")
        }
        guard rows.count == urls.count else { throw TestFailure("\(rows.count) summaries for \(urls.count) URLs: \(result.text.suffix(500))") }
        return rows
    }
}

/// What URLSession (FoundationNetworking on Linux) made of one request through a fault:
/// a response, or the `URLError` it raised.
enum FaultSessionOutcome: Sendable, Equatable, CustomStringConvertible {
    case response(status: Int, bytes: Int)
    case error(URLError.Code)

    var description: String {
        switch self {
        case let .response(status, bytes): return "HTTP \(status), \(bytes) bytes"
        case let .error(code): return "URLError .\(FaultSessionOutcome.name(of: code)) (\(code.rawValue))"
        }
    }

    static func name(of code: URLError.Code) -> String {
        switch code {
        case .timedOut: return "timedOut"
        case .networkConnectionLost: return "networkConnectionLost"
        case .badServerResponse: return "badServerResponse"
        case .cannotParseResponse: return "cannotParseResponse"
        case .cannotConnectToHost: return "cannotConnectToHost"
        case .unsupportedURL: return "unsupportedURL"
        case .zeroByteResource: return "zeroByteResource"
        case .cannotDecodeRawData: return "cannotDecodeRawData"
        case .cannotDecodeContentData: return "cannotDecodeContentData"
        case .notConnectedToInternet: return "notConnectedToInternet"
        case .unknown: return "unknown"
        default: return "code\(code.rawValue)"
        }
    }
}

struct FaultSessionResult: Sendable {
    let outcome: FaultSessionOutcome
    let body: Data
    let headers: [String: String]
    let seconds: Double

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

enum FaultSession {
    /// One GET through a fresh ephemeral session (a fresh connection, so no reuse retry).
    /// The session's own `timeoutIntervalForRequest` is set to `timeout`: on Linux,
    /// FoundationNetworking lets the session's value win over `URLRequest.timeoutInterval`
    /// (so `HTTPClient`'s 10 s session would turn a 2 s request timeout into 10 s).
    static func get(_ url: String, timeout: TimeInterval = 5, headers: [String: String] = [:]) async throws -> FaultSessionResult {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout + 10
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        guard let target = URL(string: url) else { throw TestFailure("bad URL \(url)") }
        var request = URLRequest(url: target, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let start = ContinuousClock.now
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response from \(url)") }
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name] = value }
            }
            return FaultSessionResult(outcome: .response(status: http.statusCode, bytes: data.count),
                                      body: data, headers: fields, seconds: seconds(since: start))
        } catch let error as URLError {
            return FaultSessionResult(outcome: .error(error.code), body: Data(), headers: [:], seconds: seconds(since: start))
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
