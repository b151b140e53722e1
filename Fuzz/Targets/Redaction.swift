@testable import FaultlineLog

/// Every redaction path of FaultlineLog with a canary secret placed in a sensitive position
/// of fuzz-built text: URL userinfo, query and fragment parameters, form fields, JSON
/// fields at any depth (and JSON or URLs inside JSON strings), credential headers, cookies,
/// URL headers and free text, then the same inputs through a `LogRecord` into a JSON line,
/// a text line and a HAR document. Invariant: no byte of the canary (marked by `Q`, which
/// nothing else contains) is ever in the output.
///
/// Input: a scenario byte, a name choice, then length-prefixed filler and the canary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedaction(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    RedactionScenario(&input).run()
    return 0
}

/// One text with a canary, and the redaction path it goes through.
struct RedactionScenario {
    /// Which path, and what the text is.
    enum Kind: CaseIterable {
        case url, urlUserinfo, urlFragment, query, form, json, jsonEmbeddedURL, jsonEmbeddedJSON, jsonHeaderEcho,
             credentialHeader, cookieHeader, setCookieHeader, locationHeader, text
    }

    /// Names the issue found missed by the exact lists: redacted as query
    /// and form parameters and as JSON fields.
    static let missedNames = ["auth_token", "session_token", "jwt", "secret", "new_password", "newPassword", "otp", "private_key"]
    /// Query (and form) parameter names that must be redacted: the defaults, the missed
    /// names, form array syntax and a name with a percent-encoded NUL.
    static let parameterNames = [
        "access_token", "id_token", "refresh_token", "token", "code", "client_secret", "api_key", "key",
        "password", "sig", "signature", "X-Amz-Signature", "X-Amz-Credential", "AWSAccessKeyId", "Password", "ACCESS-TOKEN",
        "token[]", "user[password]", "token%00",
    ] + missedNames
    /// JSON member names that must be redacted: the body field defaults and the missed names.
    static let jsonNames = [
        "password", "passwd", "secret", "token", "access_token", "refresh_token", "id_token", "client_secret",
        "api_key", "apikey", "authorization", "credit_card", "card_number", "cvv", "ssn", "Password", "accessToken",
    ] + missedNames
    /// Headers whose whole value is a secret.
    static let credentialHeaders = [
        "Authorization", "Proxy-Authorization", "X-Api-Key", "api-key", "X-Auth-Token", "X-CSRF-Token",
        "X-Amz-Security-Token", "X-Goog-Api-Key", "X-Session-Id", "X-Client-Secret", "X-My-Password",
        "X-Forwarded-Authorization", "X-Credential",
    ]
    /// Names a free-text scanner must recognise before `=` or `:`.
    static let textNames = ["password", "token", "access_token", "api_key", "Authorization", "secret", "X-Api-Key", "client_secret"]

    /// The default rules, built once (building them costs more than a redaction).
    static let redactor = Redactor()

    let kind: Kind
    let name: String
    let filler: [[UInt8]]
    let canaryBytes: [UInt8]

    init(_ input: inout FuzzInput) {
        kind = input.pick(Kind.allCases)
        let choice = Int(input.byte())
        switch kind {
        case .credentialHeader: name = Self.credentialHeaders[choice % Self.credentialHeaders.count]
        case .text: name = Self.textNames[choice % Self.textNames.count]
        case .json, .jsonEmbeddedJSON: name = Self.jsonNames[choice % Self.jsonNames.count]
        default: name = Self.parameterNames[choice % Self.parameterNames.count]
        }
        filler = (0..<4).map { _ in CanaryText.filler(input.chunk()) }
        canaryBytes = input.rest()
    }

    private func canary(_ allowed: [UInt8]) -> [UInt8] {
        CanaryText.canary(canaryBytes, allowed: allowed)
    }

    private func mapped(_ index: Int, _ allowed: [UInt8]) -> [UInt8] {
        CanaryText.filler(filler[index], allowed: allowed)
    }

    private var nameBytes: [UInt8] { Array(name.utf8) }

    /// A JSON value from filler, nesting the secret member `inner` somewhere inside.
    private func jsonDocument(_ inner: [UInt8]) -> [UInt8] {
        let key1 = CanaryText.jsonString(filler[0])
        let value1 = CanaryText.jsonString(filler[1])
        let depth = filler[2].first.map { Int($0 % 4) } ?? 0
        var doc: [UInt8] = Array("{".utf8) + inner + Array("}".utf8)
        for level in 0..<depth {
            doc = level % 2 == 0
                ? Array("[".utf8) + value1 + Array(",".utf8) + doc + Array("]".utf8)
                : Array("{".utf8) + key1 + Array(":".utf8) + value1 + Array(",".utf8) + CanaryText.jsonString(filler[3])
                    + Array(":".utf8) + doc + Array("}".utf8)
        }
        return Array("{".utf8) + key1 + Array(":".utf8) + value1 + Array(",\"data\":".utf8) + doc + Array("}".utf8)
    }

    func run() {
        let redactor = Self.redactor
        let policy = LogPolicy(redactor: redactor, options: LogOptions(headers: true, bodies: true, headerValueMaxBytes: 1 << 20, bodyMaxBytes: 1 << 20))
        var record = LogRecord(kind: .exchange, time: LogTimestamp(seconds: 1_780_000_000), requestID: "req-1")
        record.method = "POST"
        let text: [UInt8]
        let output: String
        switch kind {
        case .url, .urlFragment:
            let separator = kind == .url ? "?" : "#"
            text = Array("https://example.test/".utf8) + mapped(0, CanaryText.queryValue).filter { $0 != UInt8(ascii: "#") && $0 != UInt8(ascii: "?") }
                + Array(separator.utf8) + mapped(1, CanaryText.queryValue) + Array("&".utf8) + nameBytes + Array("=".utf8)
                + canary(CanaryText.queryValue) + Array("&".utf8) + mapped(2, CanaryText.queryValue)
            output = redactor.redactURL(String(decoding: text, as: UTF8.self)).text
            record.setTarget(bytes: text, policy: policy)
        case .urlUserinfo:
            text = Array("https://".utf8) + mapped(0, CanaryText.userinfo) + Array(":".utf8) + canary(CanaryText.userinfo)
                + Array("@example.test/".utf8) + mapped(1, CanaryText.queryValue)
            output = redactor.redactURL(String(decoding: text, as: UTF8.self)).text
            record.setTarget(bytes: text, policy: policy)
        case .query:
            text = mapped(0, CanaryText.queryValue) + Array("&".utf8) + nameBytes + Array("=".utf8) + canary(CanaryText.queryValue)
                + Array("&".utf8) + mapped(1, CanaryText.queryValue)
            output = redactor.redactQuery(String(decoding: text, as: UTF8.self)).text
            record.setTarget(bytes: Array("/search?".utf8) + text, policy: policy)
        case .form:
            text = mapped(0, CanaryText.queryValue) + Array("&".utf8) + nameBytes + Array("=".utf8) + canary(CanaryText.queryValue)
                + Array("&".utf8) + mapped(1, CanaryText.queryValue)
            let type = "application/x-www-form-urlencoded"
            output = redactor.redactBody(text, contentType: type, direction: .request).text
            record.addHeader(name: "Content-Type", value: type, direction: .request, policy: policy)
            record.setBody(text, contentType: type, direction: .request, policy: policy)
        case .json, .jsonEmbeddedURL, .jsonEmbeddedJSON, .jsonHeaderEcho:
            let inner: [UInt8]
            switch kind {
            case .json:
                inner = CanaryText.jsonString(nameBytes) + Array(":".utf8) + CanaryText.jsonString(canary(CanaryText.jsonText))
            case .jsonEmbeddedURL:
                let url = Array("https://example.test/cb?".utf8) + mapped(0, CanaryText.urlQueryValue) + Array("&".utf8) + nameBytes
                    + Array("=".utf8) + canary(CanaryText.urlQueryValue)
                inner = Array("\"url\":".utf8) + CanaryText.jsonString(url)
            case .jsonEmbeddedJSON:
                let embedded = Array("{".utf8) + CanaryText.jsonString(nameBytes) + Array(": ".utf8)
                    + CanaryText.jsonString(canary(CanaryText.alphanumeric)) + Array("}".utf8)
                inner = Array("\"data\":".utf8) + CanaryText.jsonString(embedded)
            default:
                let header = Self.credentialHeaders[Int(filler[3].first ?? 0) % Self.credentialHeaders.count]
                inner = Array("\"headers\":{\"Accept\":\"*/*\",".utf8) + CanaryText.jsonString(Array(header.utf8))
                    + Array(":\"Bearer ".utf8) + canary(CanaryText.token68) + Array("\",\"Cookie\":\"session=".utf8)
                    + canary(CanaryText.cookieOctet) + Array("\"}".utf8)
            }
            text = jsonDocument(inner)
            let type = "application/json"
            output = redactor.redactBody(text, contentType: type, direction: .response).text
            record.addHeader(name: "Content-Type", value: type, direction: .response, policy: policy)
            record.setBody(text, contentType: type, direction: .response, policy: policy)
        case .credentialHeader:
            let scheme = ["Bearer ", "Basic ", "", "Token ", "bearer  "][Int(filler[0].first ?? 0) % 5]
            text = Array(scheme.utf8) + canary(CanaryText.token68)
            output = redactor.redactHeader(name: name, value: String(decoding: text, as: UTF8.self), direction: .request).text
            record.addHeader(name: name, value: String(decoding: text, as: UTF8.self), direction: .request, policy: policy)
        case .cookieHeader:
            text = mapped(0, CanaryText.cookieOctet) + Array("=".utf8) + mapped(1, CanaryText.cookieOctet) + Array("; session=".utf8)
                + canary(CanaryText.cookieOctet) + Array("; theme=dark".utf8)
            output = redactor.redactHeader(name: "Cookie", value: String(decoding: text, as: UTF8.self), direction: .request).text
            record.addHeader(name: "Cookie", value: String(decoding: text, as: UTF8.self), direction: .request, policy: policy)
        case .setCookieHeader:
            text = Array("session=".utf8) + canary(CanaryText.cookieOctet) + Array("; Path=/; ".utf8) + mapped(0, CanaryText.cookieOctet)
            output = redactor.redactHeader(name: "Set-Cookie", value: String(decoding: text, as: UTF8.self), direction: .response).text
            record.addHeader(name: "Set-Cookie", value: String(decoding: text, as: UTF8.self), direction: .response, policy: policy)
        case .locationHeader:
            text = Array("https://example.test/next?".utf8) + mapped(0, CanaryText.queryValue) + Array("&".utf8) + nameBytes
                + Array("=".utf8) + canary(CanaryText.queryValue)
            output = redactor.redactHeader(name: "Location", value: String(decoding: text, as: UTF8.self), direction: .response).text
            record.addHeader(name: "Location", value: String(decoding: text, as: UTF8.self), direction: .response, policy: policy)
        case .text:
            let forms: [[UInt8]] = [
                nameBytes + Array("=".utf8) + canary(CanaryText.alphanumeric),
                nameBytes + Array(": ".utf8) + canary(CanaryText.alphanumeric),
                Array("\"".utf8) + nameBytes + Array("\": \"".utf8) + canary(CanaryText.alphanumeric) + Array("\"".utf8),
                Array("Authorization: Bearer ".utf8) + canary(CanaryText.token68),
                Array("https://user:".utf8) + canary(CanaryText.userinfo) + Array("@example.test/".utf8),
                Array("https://example.test/?access_token=".utf8) + canary(CanaryText.alphanumeric),
            ]
            let secret = forms[Int(filler[3].first ?? 0) % forms.count]
            text = mapped(0, CanaryText.jsonText) + Array("\n".utf8) + secret + Array("\n".utf8) + mapped(1, CanaryText.jsonText)
            output = redactor.redact(text: String(decoding: text, as: UTF8.self)).text
            record.setError(type: "upstream_connect", message: String(decoding: text, as: UTF8.self), policy: policy)
            record.setMessage(String(decoding: text, as: UTF8.self), policy: policy)
            record.addAttribute("faultline.detail", String(decoding: text, as: UTF8.self), policy: policy)
        }
        check("\(kind) redaction", text: text, output: Array(output.utf8))
        check("\(kind) JSON line", text: text, output: JSONLineEncoder.encode(record))
        check("\(kind) text line", text: text, output: TextLineEncoder(colour: false).encode(record))
        check("\(kind) HAR", text: text, output: HARDocumentEncoder.encode([record], creatorVersion: "fuzz"))
    }

    private func check(_ path: String, text: [UInt8], output: [UInt8]) {
        guard let index = CanaryText.leak(in: output) else { return }
        let from = max(0, index - 60)
        FuzzCheck.fail("redaction: canary survives the \(path) (name \(name))\n  input:  \(FuzzCheck.show(text))\n  output: …\(FuzzCheck.show(output[from...]))")
    }
}
