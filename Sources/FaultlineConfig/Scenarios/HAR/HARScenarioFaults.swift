import Foundation

/// The faults that reproduce one entry's outcome: its status with body (text, cut to a bound),
/// headers (hop-by-hop and framing ones dropped; values copied as captured, so a value the
/// capture redacted stays redacted) and content type; a delay for a slow entry; a reset for an
/// aborted one; a hang for one that timed out.
enum HARScenarioFaults {
    /// Never copied: hop-by-hop (RFC 9110 §7.6.1), framing the proxy writes itself, the
    /// content coding (HAR bodies are decoded), and fields every response gets anew.
    static let droppedHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
        "proxy-authenticate", "proxy-authorization", "content-length", "content-encoding", "content-type", "date",
        "alt-svc",
    ]

    static func faults(_ entry: HARScenarioEntry, options: HARScenarioOptions, notes: inout [String]) -> [[String: Any]] {
        switch entry.outcome {
        case .passed:
            return []
        case .reset:
            return [["reset": [String: Any]()]]
        case .hang(let ms):
            return [["hang": ["ms": ms, "then": "reset"]]]
        case .slow(let ms):
            return [["delay": ["ms": ms]]]
        case .status(let code, let slowMs):
            var status: [String: Any] = ["code": code]
            if let response = entry.response {
                let headers = copiedHeaders(response.headers ?? [])
                if !headers.isEmpty { status["headers"] = headers }
                if let type = contentType(response), !type.isEmpty { status["content_type"] = type }
                if let body = body(response.content, limit: options.maxBodyBytes, index: entry.index, notes: &notes), !body.isEmpty {
                    status["body"] = body
                }
            }
            var faults: [[String: Any]] = []
            if let slowMs { faults.append(["delay": ["ms": slowMs]]) }
            faults.append(["status": status])
            return faults
        }
    }

    /// First occurrence of each name (a status fault holds one value per name), names that are
    /// tokens and values without control characters; HTTP/2 pseudo-headers are not fields.
    static func copiedHeaders(_ headers: [HARInput.Header]) -> [String: String] {
        var copied: [String: String] = [:]
        for header in headers {
            let name = header.name.lowercased()
            guard !name.hasPrefix(":"), !name.hasPrefix("x-faultline-"), !droppedHeaders.contains(name),
                  HTTPToken.isToken(name), copied[name] == nil,
                  header.value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" }) else { continue }
            copied[name] = header.value
        }
        return copied
    }

    private static func contentType(_ response: HARInput.Response) -> String? {
        let fromHeader = response.headers?.first { $0.name.lowercased() == "content-type" }?.value
        let type = fromHeader ?? response.content?.mimeType
        guard let type, type.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return nil }
        return type
    }

    /// The body as text (base64 decoded when it is UTF-8), cut at a character boundary.
    private static func body(_ content: HARInput.Content?, limit: Int, index: Int, notes: inout [String]) -> String? {
        guard let content, let text = content.text else { return nil }
        var body = text
        if content.encoding?.lowercased() == "base64" {
            guard let data = Data(base64Encoded: text), let decoded = String(data: data, encoding: .utf8) else {
                notes.append("log.entries[\(index)]: the response body is binary; the rule answers without it")
                return nil
            }
            body = decoded
        }
        guard body.utf8.count > limit else { return body }
        var cut = ""
        var bytes = 0
        for character in body {
            let size = character.utf8.count
            if bytes + size > limit { break }
            cut.append(character)
            bytes += size
        }
        notes.append("log.entries[\(index)]: the response body (\(body.utf8.count) bytes) was cut to \(bytes) bytes")
        return cut
    }
}
