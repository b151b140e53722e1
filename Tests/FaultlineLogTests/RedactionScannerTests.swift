import Foundation
import Testing
import FaultlineLog

/// Each redaction scanner on the positions the name lists alone missed:
/// JSON keys that are header names, strings holding URLs, credentials or JSON, names only
/// the substring rules or the extra names catch, and names spelt with brackets, NUL or case.
@Suite("Redaction scanners")
struct RedactionScannerTests {
    private let redactor = Redactor()

    private func json(_ text: String) -> Redacted {
        redactor.redactBody(Array(text.utf8), contentType: "application/json", direction: .response)
    }

    @Test func jsonKeysThatAreHeaderNamesHaveTheirValuesRedactedWhole() {
        let echoed = json(#"{"headers": {"Cookie": "session=s1", "X-Api-Key": "k1", "Proxy-Authorization": "Basic YTpi", "Accept": "*/*"}}"#)
        #expect(echoed.text == #"{"headers": {"Cookie": "[REDACTED]", "X-Api-Key": "[REDACTED]", "Proxy-Authorization": "[REDACTED]", "Accept": "*/*"}}"#)
        #expect(echoed.redactedFields == ["response.body.cookie", "response.body.x-api-key", "response.body.proxy-authorization"])
        // Objects and arrays under a sensitive key go whole.
        #expect(json(#"{"session": {"id": 1, "user": "u"}, "credentials": ["a", "b"], "ok": [1]}"#).text
            == #"{"session": "[REDACTED]", "credentials": "[REDACTED]", "ok": [1]}"#)
    }

    @Test func jsonStringsGoThroughTheFreeTextRules() {
        let result = json(#"{"url": "https://h/cb?access_token=t1&state=visible", "php": "https:\/\/h\/x?token=t2", "auth": "Bearer t3", "note": "see password=t4 now"}"#)
        #expect(result.text == #"{"url": "https://h/cb?access_token=[REDACTED]&state=visible", "php": "https://h/x?token=[REDACTED]", "auth": "Bearer [REDACTED]", "note": "see password=[REDACTED] now"}"#,
                "\(result.text)")
        #expect(result.redactedFields.count == 4, "\(result.redactedFields)")
    }

    @Test func jsonInsideAJSONStringIsScannedAsJSON() {
        let result = json(#"{"data": "{\"password\": \"t1\", \"user\": \"visible\", \"inner\": \"{\\\"jwt\\\": \\\"t2\\\"}\"}"}"#)
        #expect(!result.text.contains("t1") && !result.text.contains("t2"), "\(result.text)")
        #expect(result.text.contains(#"\"user\": \"visible\""#), "\(result.text)")
        #expect(result.redactedFields == ["response.body.password", "response.body.jwt"], "\(result.redactedFields)")
        // Still a valid JSON document with the same shape.
        #expect(result.text.hasPrefix(#"{"data": "{\"password\": \"[REDACTED]\""#), "\(result.text)")
    }

    @Test func namesBySubstringExtraNameCaseBracketsAndControlCharacters() {
        for name in ["auth_token", "session_token", "jwt", "secret", "new_password", "newPassword", "otp", "private_key",
                     "privateKey", "passcode", "pin", "token[]", "token[0]", "user[password]", "TOKEN", "token\u{0}", "x-refresh-token"] {
            #expect(redactor.isSensitiveQueryParameter(name), "query \(name)")
            #expect(redactor.isSensitiveBodyField(name), "body \(name)")
        }
        for name in ["q", "page", "user", "name", "keyboard", "author", "spinner"] {
            #expect(!redactor.isSensitiveBodyField(name), "body \(name)")
        }
        #expect(redactor.redactQuery("token[]=a&token%00=b&Token%5B0%5D=c&jwt=d&q=e").text
            == "token[]=[REDACTED]&token%00=[REDACTED]&Token%5B0%5D=[REDACTED]&jwt=[REDACTED]&q=e")
        // A kept name is kept by every rule, substrings included.
        let custom = Redactor(removeQueryParameters: ["token"], removeBodyFields: ["session_id"])
        #expect(custom.redactQuery("token=a&x_token=b").text == "token=a&x_token=[REDACTED]")
        #expect(!custom.isSensitiveBodyField("sessionId"))
    }

    @Test func queryAndFormValuesGoThroughTheFreeTextRules() {
        #expect(redactor.redactQuery("next=https://h/?access_token=t1&page=2").text
            == "next=https://h/?access_token=[REDACTED]&page=2")
        let encoded = "next=https%3A%2F%2Fh%2Fx%3Faccess_token%3Dt1%26s%3Dvisible&page=2"
        let form = redactor.redactBody(Array(encoded.utf8), contentType: "application/x-www-form-urlencoded", direction: .request)
        #expect(!form.text.contains("t1") && form.text.hasSuffix("&page=2") && form.text.contains("visible"), "\(form.text)")
        #expect(form.redactedFields == ["request.body.query.access_token"], "\(form.redactedFields)")
        // Nesting beyond the limit goes whole rather than unscanned.
        let deep = String(repeating: "u=http://h/?", count: 8) + "x=1"
        #expect(redactor.redactQuery(deep).text.contains("[REDACTED]"))
    }

    @Test func freeTextURLsBracketsPercentEscapedQuotesAndXML() {
        let text = #"go https://h/p?otp=t1&x=visible then token[]=t2, %74oken=t3 {\"newPassword\": \"t4\"} <password>t5</password> <ns:jwt>t6</ns:jwt> <note>visible</note>"#
        let result = redactor.redact(text: text, field: "body")
        for secret in ["t1", "t2", "t3", "t4", "t5", "t6"] {
            #expect(!result.text.contains(secret), "\(secret) in \(result.text)")
        }
        #expect(result.text.contains("x=visible") && result.text.contains("<note>visible</note>"), "\(result.text)")
    }

    @Test func headerValuesOutsideTheListsGoThroughTheFreeTextRules() {
        #expect(redactor.redactHeader(name: "Link", value: "<https://h/p?access_token=t1>; rel=\"next\"", direction: .response).text
            == "<https://h/p?access_token=[REDACTED]>; rel=\"next\"")
        #expect(redactor.redactHeader(name: "X-Debug", value: "jwt=t2", direction: .response).text == "jwt=[REDACTED]")
        #expect(redactor.redactHeader(name: "X-Request-Id", value: "abc-123", direction: .request).text == "abc-123")
    }

    @Test func nothingRedactedMeansTheInputUnchanged() {
        let document = #"{"a": [1, 2.5, true, null, "plain \"quoted\" \u00e9 text"], "b": {"c": "x=1"}}"#
        #expect(json(document) == Redacted(text: document))
        #expect(redactor.redact(text: "connection refused to 127.0.0.1:8081 (https://h/p?q=1)").redactedFields.isEmpty)
    }
}

extension RedactionScannerTests {
    @Test func percentEncodedPairsAndURLsInFreeText() {
        let text = "data: user=v&next=https%3A%2F%2Fh%2Fx%3Faccess%5Ftoken%3Dt1 and access%5Ftoken%3Dt2 too, %2Fp%3Fjwt%3Dt3"
        let result = redactor.redact(text: text, field: "body")
        for secret in ["t1", "t2", "t3"] {
            #expect(!result.text.contains(secret), "\(secret) in \(result.text)")
        }
        #expect(result.text.hasPrefix("data: user=v&next=") && result.text.contains(" too, "), "\(result.text)")
    }
}

extension RedactionScannerTests {
    @Test func redactedJSONStaysValidJSON() throws {
        let documents = [
            #"{"headers": {"Cookie": "a=b", "X-Api-Key": 42}, "list": [{"jwt": ["x", {"y": 1}]}, null, true]}"#,
            #"{"data": "{\"note\": \"\\ud83d\\ude00 token=t1\", \"q\": \"tab\\there\"}", "s": "line\nbreak password=t2 \u00e9"}"#,
            #"["https:\/\/h\/?access_token=t3&x=1", "Bearer t4", {"otp": null}]"#,
        ]
        for document in documents {
            let result = json(document)
            let parsed = try JSONSerialization.jsonObject(with: Data(result.text.utf8), options: [.fragmentsAllowed])
            #expect(!(parsed is NSNull), "\(result.text)")
            for secret in ["t1", "t2", "t3", "t4", "a=b", "42"] {
                #expect(!result.text.contains(secret), "\(secret) in \(result.text)")
            }
        }
        // Escapes outside what was redacted come back as the characters they stood for.
        let emoji = json(#"{"data": "{\"note\": \"\\ud83d\\ude00 token=t1\"}"}"#).text
        #expect(emoji.contains("😀 token=[REDACTED]"), "\(emoji)")
    }
}

extension RedactionScannerTests {
    @Test func nameValuePairsNamingASecret() {
        let result = json(#"{"headers": [{"name": "X-Api-Key", "value": "t1"}, {"name": "Accept", "value": "visible"}],"#
            + #" "env": [{"name": "DB_PASSWORD", "meta": {"value": "inner-visible"}, "value": "t2"}], "value": "top-visible"}"#)
        #expect(!result.text.contains("t1") && !result.text.contains("t2"), "\(result.text)")
        for neighbour in ["\"visible\"", "inner-visible", "top-visible"] {
            #expect(result.text.contains(neighbour), "\(neighbour) in \(result.text)")
        }
        #expect(result.redactedFields == ["response.body.x-api-key", "response.body.db_password"], "\(result.redactedFields)")
    }
}

extension RedactionScannerTests {
    @Test func pinIsAFieldNameNotAWordOfProse() {
        #expect(redactor.isSensitiveQueryParameter("pin") && redactor.isSensitiveBodyField("PIN"))
        #expect(json(#"{"pin": 1234}"#).text == #"{"pin": "[REDACTED]"}"#)
        let message = "the verified chain matched no configured pin: refused, nothing was forwarded"
        #expect(redactor.redact(text: message, field: "message").text == message)
        #expect(redactor.redact(text: "no backup pin: every pin matches", field: "message").redactedFields.isEmpty)
    }
}

extension RedactionScannerTests {
    @Test func aPlusIsASpaceInParameterValues() {
        // Decoded to scan, re-encoded when something was redacted; untouched otherwise.
        #expect(redactor.redactQuery("auth=Bearer+t1&x=a+b").text == "auth=Bearer%20[REDACTED]&x=a+b")
    }

    @Test func aCookieNameInFreeTextRedactsEveryCrumbToTheEndOfTheLine() {
        let text = "lang: visible\ncookie: lang=en; connect.sid=s1; SID=s2\r\n"
            + "set-cookie: sid=s3; Path=/; HttpOnly, theme=s4; SameSite=Lax\n"
            + "X-Original-Cookie: a=s5; b=s6\nsent cookie=a=s7; b=s8&page=visible-page\nafter: visible"
        let result = redactor.redact(text: text, field: "response.body")
        #expect(result.text == "lang: visible\ncookie: [REDACTED]\r\nset-cookie: [REDACTED]\n"
                + "X-Original-Cookie: [REDACTED]\nsent cookie=[REDACTED]&page=visible-page\nafter: visible", "\(result.text)")
        #expect(result.redactedFields == ["response.body.cookie", "response.body.set-cookie", "response.body.x-original-cookie",
                                          "response.body.cookie"], "\(result.redactedFields)")
        // Quoted, the value ends at its quote; a quoted JSON member is redacted whole as before.
        #expect(redactor.redact(text: #"{"Cookie": "a=s1; b=s2", "note": "visible"}"#).text
            == #"{"Cookie": "[REDACTED]", "note": "visible"}"#)
        // A JSON string echoing a cookie line.
        let echoed = json(#"{"data": "cookie: a=s1; b=s2", "note": "visible"}"#)
        #expect(echoed.text == #"{"data": "cookie: [REDACTED]", "note": "visible"}"#, "\(echoed.text)")
        // A header the configuration keeps is not a secret name at all.
        #expect(Redactor(removeHeaders: ["cookie"], removeHeaderSubstrings: ["cookie"]).redact(text: "cookie: a=1; b=2").text
            == "cookie: a=1; b=2")
    }

    @Test func aJSONDocumentIsRedactedAsJSONWhateverTheValueTypes() {
        let extra = #"{"api_key":["s1"],"client_secret":{"v":"s2"},"note":"visible","pin":135790,"tokens":["s3",{"n":"s4"}]}"#
        let result = redactor.redact(json: extra, field: "pin_report.extra")
        #expect(result.text == #"{"api_key":"[REDACTED]","client_secret":"[REDACTED]","note":"visible","pin":"[REDACTED]","tokens":"[REDACTED]"}"#,
                "\(result.text)")
        #expect(result.redactedFields == ["pin_report.extra.api_key", "pin_report.extra.client_secret", "pin_report.extra.pin",
                                          "pin_report.extra.tokens"], "\(result.redactedFields)")
        #expect(redactor.redact(json: #"{"note":"visible"}"#, field: "x").redactedFields.isEmpty)
    }
}
