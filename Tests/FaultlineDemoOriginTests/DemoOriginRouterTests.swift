import FaultlineHTTP
import Testing
@testable import FaultlineDemoOrigin

@Suite("Demo origin routing helpers")
struct DemoOriginRouterTests {
    @Test func queryDecoding() {
        #expect(DemoOriginQuery.decode("a+b%20c%2Bd") == "a b c+d")
        #expect(DemoOriginQuery.decode("100%") == "100%")
        #expect(DemoOriginQuery.decode("%zz%4") == "%zz%4")
        #expect(DemoOriginQuery.decode("caf%C3%A9") == "café")
        let pairs = DemoOriginQuery.parameters("q=a&flag&&x=1=2")
        #expect(pairs.map(\.name) == ["q", "flag", "x"])
        #expect(pairs.map(\.value) == ["a", "", "1=2"])
    }

    @Test func base64() {
        #expect(DemoOriginBase64.encode(Array("".utf8)) == "")
        #expect(DemoOriginBase64.encode(Array("f".utf8)) == "Zg==")
        #expect(DemoOriginBase64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(DemoOriginBase64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(DemoOriginBase64.decodedLength("dGhlIHNhbXBsZSBub25jZQ==") == 16)
        #expect(DemoOriginBase64.decodedLength("abc") == nil)
        #expect(DemoOriginBase64.decodedLength("a=bc") == nil)
    }

    @Test func jsonEscaping() {
        #expect(DemoOriginJSON.quoted("a\"b\\c\nd\u{1}") == "\"a\\\"b\\\\c\\nd\\u0001\"")
    }

    @Test func absoluteFormTargetsRouteByPath() {
        var head = HTTPHead()
        head.method = "GET"
        head.target = Array("http://example.test/users/2?x=1".utf8)
        let request = DemoOriginRequest(head: head, peer: nil)
        #expect(request.path == "/users/2")
        #expect(request.query == "x=1")
    }
}
