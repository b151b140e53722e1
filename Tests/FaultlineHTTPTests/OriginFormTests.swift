import Testing
import FaultlineHTTP

@Suite("Absolute-form targets")
struct OriginFormTests {
    private func origin(_ target: String) -> String? {
        var head = HTTPHead()
        head.target = Array(target.utf8)
        return head.originFormTarget.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        ("http://alice:secret@example.com:8080/p/q?x=1#frag", "/p/q?x=1"),
        ("HTTPS://example.com", "/"),
        ("http://example.com?x=1", "/?x=1"),
        ("http://u:x@[bad/x", "/x"),
    ])
    func absoluteFormBecomesOriginFormWithoutUserinfoOrFragment(target: String, expected: String) {
        #expect(origin(target) == expected)
    }

    @Test(arguments: ["/plain?x=http://a", "*", "example.com:443", "/a:b://c"])
    func otherFormsAreLeftAlone(target: String) {
        #expect(origin(target) == nil)
    }
}
