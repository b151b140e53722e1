import Testing
import FaultlineLog

@Suite("Redactor")
struct RedactorTests {
    private let redactor = Redactor()

    @Test func headersByNameSubstringAndKeep() {
        #expect(redactor.redactHeader(name: "AUTHORIZATION", value: "Basic dXNlcjpwYXNz", direction: .request)
            == Redacted(text: "Basic [REDACTED]", redactedFields: ["request.header.authorization"]))
        #expect(redactor.redactHeader(name: "Authorization", value: "sekret", direction: .response).text == "[REDACTED]")
        #expect(redactor.redactHeader(name: "Authorization", value: "sekret more", direction: .response).text == "[REDACTED]")
        #expect(redactor.isSensitiveHeader("X-Github-Token"))
        #expect(redactor.isSensitiveHeader("x_client_secret"))
        #expect(!redactor.isSensitiveHeader("Content-Type"))
        let custom = Redactor(addHeaders: ["X-Mine"], removeHeaders: ["x-session-trace", "x-api-key"], removeHeaderSubstrings: ["token"])
        #expect(custom.isSensitiveHeader("x-mine"))
        #expect(!custom.isSensitiveHeader("X-Session-Trace"))
        #expect(!custom.isSensitiveHeader("X-Api-Key"))
        #expect(!custom.isSensitiveHeader("X-Github-Token"))
        #expect(custom.isSensitiveHeader("X-Auth-Token"))
        // Common headers take a fast path; configuration still reaches them.
        let strict = Redactor(addHeaders: ["Server"], addHeaderSubstrings: ["agent"])
        #expect(strict.redactHeader(name: "Server", value: "nginx", direction: .response).text == "[REDACTED]")
        #expect(strict.redactHeader(name: "User-Agent", value: "curl/8", direction: .request).text == "[REDACTED]")
        #expect(redactor.redactHeader(name: "User-Agent", value: "curl/8", direction: .request).text == "curl/8")
        for name in ["X-Forwarded-Authorization", "X-Amz-Credential-Scope", "X-Original-Cookie"] {
            #expect(redactor.isSensitiveHeader(name), "\(name)")
        }
    }

    @Test func nestedFormAndQueryNamesAsRailsWritesThem() {
        let form = redactor.redactBody(Array("user[name]=ann&user[password]=p1&user%5Bapi_key%5D=k&a[b][token]=t".utf8),
                                       contentType: "application/x-www-form-urlencoded", direction: .request)
        #expect(form.text == "user[name]=ann&user[password]=[REDACTED]&user%5Bapi_key%5D=[REDACTED]&a[b][token]=[REDACTED]")
        #expect(redactor.redactQuery("filter[code]=c&filter[q]=shoes").text == "filter[code]=[REDACTED]&filter[q]=shoes")
    }

    @Test func cookiesKeepNamesAndAttributes() {
        #expect(redactor.redactHeader(name: "cookie", value: "session=abc; theme=dark", direction: .request)
            == Redacted(text: "session=[REDACTED]; theme=[REDACTED]", redactedFields: ["request.cookie.session", "request.cookie.theme"]))
        let set = redactor.redactHeader(
            name: "Set-Cookie", value: "id=a3fWa; Expires=Thu, 21 Oct 2027 07:28:00 GMT; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Lax; Foo=bar",
            direction: .response)
        #expect(set.text == "id=[REDACTED]; Expires=Thu, 21 Oct 2027 07:28:00 GMT; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Lax; Foo=[REDACTED]")
        #expect(set.redactedFields == ["response.cookie.id"])
    }

    @Test func queryAndURL() {
        #expect(redactor.redactQuery("a=1&Token=x&X%2DAmz%2DSignature=y&b&=z&code=")
            == Redacted(text: "a=1&Token=[REDACTED]&X%2DAmz%2DSignature=[REDACTED]&b&=z&code=[REDACTED]",
                        redactedFields: ["request.query.token", "request.query.x-amz-signature", "request.query.code"]))
        #expect(redactor.redactURL("https://user:pa@ss@host:8443/p?key=k#id_token=t&state=s").text
            == "https://[REDACTED]@host:8443/p?key=[REDACTED]#id_token=[REDACTED]&state=s")
        #expect(redactor.redactURL("/plain/path").redactedFields.isEmpty)
        let custom = Redactor(addQueryParameters: ["session_id"], removeQueryParameters: ["code"])
        #expect(custom.redactQuery("code=1&session_id=2").text == "code=1&session_id=[REDACTED]")
    }

    @Test func jsonBodiesAtAnyDepthValidOrNot() {
        let json = #"{"a":{"b":[{"Password":"p1"},{"token":123,"x":"keep"}]},"refresh_token":null,"pass\u0077d":"p2"}"#
        let result = redactor.redactBody(Array(json.utf8), contentType: "application/json", direction: .response)
        #expect(result.text == #"{"a":{"b":[{"Password":"[REDACTED]"},{"token":"[REDACTED]","x":"keep"}]},"refresh_token":null,"pass\u0077d":"[REDACTED]"}"#)
        #expect(result.redactedFields == ["response.body.password", "response.body.token", "response.body.passwd"])
        for broken in [#"{"password": "abc"#, #"{"password": "#, #"{"token": "a" "secret":"b"]]]"#, #"{"#, #"""#, "\u{0}\"", #"{"x":"\"#] {
            let output = redactor.redactBody(Array(broken.utf8), contentType: "application/json", direction: .request).text
            #expect(!output.contains("abc") && !output.contains("\"a\"") && !output.contains("\"b\""), "\(broken) → \(output)")
        }
    }

    @Test func formBodies() {
        let result = redactor.redactBody(Array("user=ann&password=p%26w&client_secret=c&x=1".utf8),
                                         contentType: "application/x-www-form-urlencoded; charset=utf-8", direction: .request)
        #expect(result.text == "user=ann&password=[REDACTED]&client_secret=[REDACTED]&x=1")
        let custom = Redactor(removeQueryParameters: ["password"], addBodyFields: ["pin"], removeBodyFields: ["password"])
        #expect(custom.redactBody(Array("pin=1&password=2".utf8), contentType: "application/x-www-form-urlencoded", direction: .request).text
            == "pin=[REDACTED]&password=2")
    }

    @Test func freeText() {
        let digest = redactor.redact(text: "Authorization: Digest username=\"ann\", realm=\"r\", response=\"6629fae4\"\r\nHost: x")
        #expect(digest.text == "Authorization: Digest [REDACTED]\r\nHost: x", "\(digest.text)")
        let text = redactor.redact(text: #"GET https://u:p@h/x failed: Authorization: Bearer eyJhb.c.d, api_key=K1 {"password": "P2"} session: S3 tokens are fine"#,
                                   field: "error")
        #expect(text.text == #"GET https://[REDACTED]@h/x failed: Authorization: Bearer [REDACTED], api_key=[REDACTED] {"password": "[REDACTED]"} session: [REDACTED] tokens are fine"#)
        #expect(text.redactedFields == ["error.userinfo", "error.bearer", "error.api_key", "error.password", "error.session"])
        #expect(redactor.redact(text: "connection refused to 127.0.0.1:8081").redactedFields.isEmpty)
    }
}

@Suite("Header fast path and media types")
struct HeaderFastPathTests {
    /// The headers of one response as a record keeps them, redacted by `redactor`.
    private func logged(_ headers: [(String, String)], _ redactor: Redactor) -> [String: String] {
        let policy = LogPolicy(redactor: redactor, options: LogOptions(headers: true, bodies: false))
        var record = LogRecord()
        record.reserveHeaders(headers.count, direction: .response, policy: policy)
        for (name, value) in headers { record.addHeader(name: name, value: value, direction: .response, policy: policy) }
        return Dictionary(uniqueKeysWithValues: record.responseHeaders.map { ($0.name, $0.value) })
    }

    @Test func commonHeadersAreKeptUnderAnySpellingAndLowercased() {
        let fields = logged([("CONTENT-TYPE", "text/plain"), ("Server", "nginx"), ("x-forwarded-for", "10.0.0.1"),
                             ("Content_Length", "64"), ("Authorization", "Bearer abc")], Redactor())
        #expect(fields == ["content-type": "text/plain", "server": "nginx", "x-forwarded-for": "10.0.0.1",
                           "content_length": "64", "authorization": "Bearer [REDACTED]"])
        #expect(Redactor().verbatimHeaderName("Content-TYPE") == "content-type")
        #expect(Redactor().verbatimHeaderName("Location") == nil, "a URL header is scanned, never verbatim")
        #expect(Redactor().verbatimHeaderName("Cookie") == nil)
    }

    @Test func configurationStillReachesCommonHeaders() {
        let strict = Redactor(addHeaders: ["Server"], addHeaderSubstrings: ["agent"])
        #expect(strict.verbatimHeaderName("Server") == nil)
        #expect(strict.verbatimHeaderName("User-Agent") == nil)
        #expect(logged([("Server", "nginx"), ("User-Agent", "curl/8"), ("Date", "today")], strict)
            == ["server": "[REDACTED]", "user-agent": "[REDACTED]", "date": "today"])
    }

    @Test func mediaTypePatterns() {
        let patterns = ["text/*", "application/json", "application/xml", "application/x-www-form-urlencoded"]
        let compiled = MediaTypePatterns(patterns)
        for type in ["text/plain", "Text/HTML; charset=utf-8", " application/json ", "application/problem+json",
                     "application/soap+xml", "application/x-www-form-urlencoded"] {
            #expect(compiled.matches(type), "\(type)")
        }
        for type in ["application/octet-stream", "image/png", "textual/plain", "application/jsonx", "", nil] as [String?] {
            #expect(!compiled.matches(type), "\(type ?? "nil")")
        }
        #expect(MediaTypePatterns(["*/*"]).matches("image/png"))
        #expect(!MediaTypePatterns([]).matches("image/png"))
    }

    @Test func compiledMediaTypePatternsMatchHeaderBytes() {
        // As the log options keep them: compiled once, matched on a field's bytes.
        let patterns = MediaTypePatterns(["TEXT/*", "Application/JSON"])
        let matches = { (value: String) in Array(value.utf8).withUnsafeBytes { patterns.matches($0) } }
        #expect(matches("text/csv; charset=utf-8"))
        #expect(matches("Text/"))
        #expect(matches("application/vnd.api+JSON"))
        #expect(!matches("application/xml"))
        #expect(!matches("tex"))
        #expect(!matches("  ; charset=utf-8"))
        #expect(LogOptions(bodyTypes: ["image/*"]).bodyTypePatterns.matches("image/png"))
        var options = LogOptions()
        options.bodyTypes = ["image/png"]
        #expect(options.bodyTypePatterns.matches("image/png") && !options.bodyTypePatterns.matches("text/plain"))
    }
}
