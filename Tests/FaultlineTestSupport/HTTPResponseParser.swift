import Foundation

/// Splits bytes read from a connection into complete HTTP/1.1 responses (Content-Length,
/// chunked, or bodiless 1xx/204/304). An incomplete tail is left out; a response without
/// length is complete only as the final one (`closed: true`).
public enum HTTPResponseParser {
    /// The complete responses at the start of `bytes`; with `closed`, a final response
    /// without length runs to the end.
    public static func parse(_ bytes: [UInt8], closed: Bool = false) -> [ParsedResponse] {
        var responses: [ParsedResponse] = []
        var offset = 0
        let separator = Array("\r\n\r\n".utf8)
        while offset < bytes.count {
            guard let headEnd = bytes[offset...].firstRange(of: separator) else { break }
            let head = String(decoding: bytes[offset..<headEnd.lowerBound], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, let status = Int(parts[1]) else { break }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let response = { (body: [UInt8]) in ParsedResponse(status: status, headers: headers, body: body) }
            var cursor = headEnd.upperBound
            let lookup = { (name: String) in headers.first { $0.name.lowercased() == name }?.value }
            if (100...199).contains(status) || status == 204 || status == 304 {
                responses.append(response([]))
            } else if let encoding = lookup("transfer-encoding"), encoding.lowercased().contains("chunked") {
                var body: [UInt8] = []
                var complete = false
                while let lineEnd = bytes[cursor...].firstRange(of: Array("\r\n".utf8)) {
                    let sizeText = String(decoding: bytes[cursor..<lineEnd.lowerBound], as: UTF8.self)
                    guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { return responses }
                    cursor = lineEnd.upperBound
                    if size == 0 {
                        // Trailers until an empty line.
                        while let trailerEnd = bytes[cursor...].firstRange(of: Array("\r\n".utf8)) {
                            let empty = trailerEnd.lowerBound == cursor
                            cursor = trailerEnd.upperBound
                            if empty { complete = true; break }
                        }
                        break
                    }
                    guard bytes.count >= cursor + size + 2 else { break }
                    body += bytes[cursor..<cursor + size]
                    cursor += size + 2
                }
                guard complete else { break }
                responses.append(response(body))
            } else if let length = lookup("content-length").flatMap({ Int($0) }) {
                guard bytes.count >= cursor + length else { break }
                responses.append(response(Array(bytes[cursor..<cursor + length])))
                cursor += length
            } else {
                guard closed else { break }
                responses.append(response(Array(bytes[cursor...])))
                cursor = bytes.count
            }
            offset = cursor
        }
        return responses
    }
}
