import Testing
@testable import FaultlineLog

/// A body's Content-Type decides how redaction reads it, compared ignoring case and
/// parameters.
@Suite("Media types for redaction")
struct MediaTypeTests {
    @Test(arguments: [
        ("Application/JSON; charset=utf-8", MediaType.BodySyntax.json), (" application/vnd.api+JSON ", .json),
        ("application/problem+json", .json), ("APPLICATION/X-WWW-FORM-URLENCODED;charset=x", .form),
        ("text/plain", .other), ("application/jsonx", .other), ("application/json-seq", .other),
    ])
    func syntaxOfAType(_ contentType: String, _ syntax: MediaType.BodySyntax) {
        #expect(MediaType.bodySyntax(contentType) == syntax, "\(contentType)")
    }

    @Test func anAbsentOrEmptyTypeSaysNothing() {
        #expect(MediaType.bodySyntax(nil) == .absent)
        #expect(MediaType.bodySyntax("") == .absent)
        #expect(MediaType.bodySyntax(" ; charset=utf-8") == .absent)
    }

    @Test func aJSONBodyOfAMixedCaseTypeIsRedactedAsJSON() {
        let result = Redactor().redactBody(Array(#"{"password":"SECRET-1","name":"ann"}"#.utf8),
                                           contentType: "Application/Json; charset=UTF-8", direction: .request)
        #expect(!result.text.contains("SECRET"))
        #expect(result.text.contains("ann"))
        #expect(result.redactedFields == ["request.body.password"])
    }
}
