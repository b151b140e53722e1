import Foundation
import FaultlineTestSupport

/// curl with the status code and content type appended, for assertions on proxied answers.
enum TLSCurl {
    struct Reply: Sendable {
        let exitCode: Int32
        let status: Int
        let contentType: String
        let body: String
        let stderr: String
    }

    static let marker = "\n@@faultline-status@@ "

    static func get(_ url: String, _ extra: [String] = [], maxTime: Int = 10) async throws -> Reply {
        let result = try await Curl.run(extra + ["-w", "\(marker)%{http_code} %{content_type}", url], maxTime: maxTime)
        let text = result.text
        guard let range = text.range(of: marker, options: .backwards) else {
            return Reply(exitCode: result.exitCode, status: 0, contentType: "", body: text, stderr: result.stderr)
        }
        let tail = text[range.upperBound...].split(separator: " ", maxSplits: 1).map(String.init)
        return Reply(exitCode: result.exitCode, status: Int(tail.first ?? "") ?? 0,
                     contentType: tail.count > 1 ? tail[1] : "", body: String(text[..<range.lowerBound]), stderr: result.stderr)
    }
}
