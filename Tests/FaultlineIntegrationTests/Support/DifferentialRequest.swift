import Foundation

/// One request of the differential framing test: the exact bytes a client sends, what the
/// origin must decode from them, and what the client may get back.
struct DifferentialRequest: Sendable {
    /// How the client frames the body.
    enum Framing: Sendable {
        case none
        case contentLength
        /// Chunks of these sizes (the rest of the body in a last chunk), with chunk
        /// extensions on some, and these trailer fields.
        case chunked(sizes: [Int], extensions: Bool, trailers: [StrictMessage.Field])
    }

    /// Whether the request may or must reach the origin.
    enum Reach: Sendable {
        /// The proxy answers it itself (404, a fault without upstream, 413 by Content-Length, 400).
        case never
        /// It may reach the origin, completely or in part.
        case allowed
    }

    /// What the client may see for this request. A closed connection is always allowed
    /// (unless the sequence must be answered in full).
    struct Outcome: Sendable {
        var reach: Reach = .allowed
        /// The status of the origin's own complete answer; nil when a complete own answer is
        /// impossible (the origin or a fault cuts it).
        var ownStatus: Int? = 200
        /// Statuses the proxy may answer with itself.
        var proxyStatuses: Set<Int> = [502, 504]
        /// A plain exchange that should normally succeed (counted in the success rate).
        var benign = true
    }

    let nonce: String
    let method: String
    let target: String
    /// The header fields as the client writes them (names in their original case).
    let headers: [StrictMessage.Field]
    /// The body the origin must decode (for a malformed body: the part before the error).
    let body: [UInt8]
    let trailers: [StrictMessage.Field]
    /// Everything the client writes for this request.
    let wire: [UInt8]
    /// Offsets in `wire` where the client starts a new write.
    var splits: [Int] = []
    /// Send only this many bytes of `wire`, then close the connection (client gives up mid-body).
    var abortAfter: Int?
    /// Close the connection once this many bytes of this request's response have arrived.
    var closeAfterResponseBytes: Int?
    /// The origin's answer: `X-Respond` mode and size.
    let respondMode: String
    let respondSize: Int
    var outcome: Outcome

    /// Builds the wire bytes for a request with these parts.
    init(nonce: String, method: String, target: String, headers: [StrictMessage.Field], body: [UInt8] = [],
         framing: Framing = .none, respond: String = "cl", size: Int = 64, outcome: Outcome = Outcome(),
         host: String = "differential.test") {
        var fields = headers
        var encodedBody: [UInt8] = []
        var trailers: [StrictMessage.Field] = []
        switch framing {
        case .none:
            break
        case .contentLength:
            fields.append(StrictMessage.Field(name: "Content-Length", value: "\(body.count)"))
            encodedBody = body
        case .chunked(let sizes, let extensions, let trailerFields):
            fields.append(StrictMessage.Field(name: "Transfer-Encoding", value: "chunked"))
            var offset = 0
            var index = 0
            var pieces = sizes.filter { $0 > 0 }
            let planned = pieces.reduce(0, +)
            if planned < body.count { pieces.append(body.count - planned) }
            for size in pieces where offset < body.count {
                let count = min(size, body.count - offset)
                let ext = extensions && index % 2 == 0 ? (index % 4 == 0 ? ";ext=\(index)" : ";q=\"a b\"") : ""
                encodedBody += Array("\(String(count, radix: 16))\(ext)\r\n".utf8)
                encodedBody += body[offset..<offset + count]
                encodedBody += Array("\r\n".utf8)
                offset += count
                index += 1
            }
            encodedBody += Array("0\r\n".utf8)
            for trailer in trailerFields { encodedBody += Array("\(trailer.name): \(trailer.value)\r\n".utf8) }
            encodedBody += Array("\r\n".utf8)
            trailers = trailerFields
        }
        self.init(nonce: nonce, method: method, target: target, host: host, respond: respond, size: size, outcome: outcome,
                  fields: fields, encodedBody: encodedBody, decodedBody: body, trailers: trailers)
    }

    /// A request whose bytes are written out by hand (hostile cases): `body` is what the
    /// origin must decode if it is forwarded.
    init(nonce: String, method: String, target: String, rawHeaders: [StrictMessage.Field], rawBody: [UInt8],
         decodedBody: [UInt8], respond: String = "cl", size: Int = 64, outcome: Outcome) {
        self.init(nonce: nonce, method: method, target: target, host: "differential.test", respond: respond, size: size,
                  outcome: outcome, fields: rawHeaders, encodedBody: rawBody, decodedBody: decodedBody, trailers: [])
    }

    /// `Host`, `X-Nonce` and `X-Respond` first, then `fields`; the wire is the request line,
    /// those fields and `encodedBody` as they are.
    private init(nonce: String, method: String, target: String, host: String, respond: String, size: Int, outcome: Outcome,
                 fields: [StrictMessage.Field], encodedBody: [UInt8], decodedBody: [UInt8], trailers: [StrictMessage.Field]) {
        self.nonce = nonce
        self.method = method
        self.target = target
        respondMode = respond
        respondSize = size
        self.outcome = outcome
        headers = [StrictMessage.Field(name: "Host", value: host), StrictMessage.Field(name: "X-Nonce", value: nonce),
                   StrictMessage.Field(name: "X-Respond", value: "\(respond) \(size)")] + fields
        body = decodedBody
        self.trailers = trailers
        var wire = Array("\(method) \(target) HTTP/1.1\r\n".utf8)
        for field in headers { wire += Array("\(field.name): \(field.value)\r\n".utf8) }
        wire += Array("\r\n".utf8)
        wire += encodedBody
        self.wire = wire
    }

    /// The body the origin answers with for `nonce` (`NONCE|` repeated), as the script makes it.
    static func responseBody(nonce: String, size: Int) -> [UInt8] {
        let unit = Array("\(nonce)|".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(size + unit.count)
        while out.count < size { out += unit }
        return Array(out.prefix(size))
    }

    /// The body this request's own response carries.
    var expectedResponseBody: [UInt8] {
        if method == "HEAD" || respondMode == "204" { return [] }
        return Self.responseBody(nonce: nonce, size: respondSize)
    }

    /// The status of this request's own response.
    var expectedOwnStatus: Int { respondMode == "204" ? 204 : 200 }

    /// One line for failure messages: method, target, body size and framing, answer mode.
    var summary: String {
        let framing = headers.contains { $0.name.lowercased() == "transfer-encoding" } ? "chunked"
            : headers.contains { $0.name.lowercased() == "content-length" } ? "length" : "none"
        var text = "\(method) \(target) body \(body.count) (\(framing)) respond \(respondMode) \(respondSize)"
        if let abortAfter { text += " abort after \(abortAfter) of \(wire.count)" }
        if let closeAfterResponseBytes { text += " close after \(closeAfterResponseBytes) response bytes" }
        if !splits.isEmpty { text += " split at \(splits.sorted())" }
        return text
    }

    /// RFC 9110 §9.2.2.
    var isIdempotent: Bool { ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method) }

    /// The header fields the origin must see: the client's, less hop-by-hop fields (the fixed
    /// set and those Connection names) and framing, grouped by lowercase name. Connection can
    /// never remove Host: it is compared whatever Connection says.
    var endToEndHeaders: [String: [String]] {
        let lowered = headers.map { StrictMessage.Field(name: $0.name.lowercased(), value: $0.value) }
        let named = Set(lowered.filter { $0.name == "connection" }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } })
            .subtracting(["host"])
        return Self.group(lowered.filter { !Self.hopByHop.contains($0.name) && !named.contains($0.name) })
    }

    /// Fields the proxy adds or removes by design, never compared.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
                                        "proxy-connection", "proxy-authenticate", "content-length"]

    /// The fields the origin received, less those the proxy adds by design and hop-by-hop ones.
    static func comparableHeaders(_ fields: [StrictMessage.Field]) -> [String: [String]] {
        group(fields.filter { field in
            !hopByHop.contains(field.name) && field.name != "via" && field.name != "x-request-id"
                && !field.name.hasPrefix("x-forwarded-")
        })
    }

    private static func group(_ fields: [StrictMessage.Field]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for field in fields { out[field.name, default: []].append(field.value) }
        return out
    }
}
