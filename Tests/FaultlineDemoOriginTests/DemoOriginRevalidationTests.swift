import FaultlineHTTP
import Testing
@testable import FaultlineDemoOrigin

/// `POST /token`, entity tags with `If-None-Match`, and `Last-Event-ID` on `/sse/{n}`: what the
/// example tests' careful clients rely on.
@Suite("Demo origin tokens, ETags and event resumption", .timeLimit(.minutes(1)))
struct DemoOriginRevalidationTests {
    @Test func tokenCountsRefreshes() throws {
        let first = try demoJSON(try demoGet("/token", method: "POST"))["token"] as? String
        let second = try demoGet("/token", method: "POST", headers: "Content-Type: application/json\r\n",
                                 body: Array("{\"grant_type\": \"refresh_token\"}".utf8))
        #expect(second.status == 200)
        #expect(second.header("content-type") == "application/json")
        #expect(second.header("cache-control") == "no-store")
        let number = { (token: String?) in token.flatMap { $0.hasPrefix("t-") ? Int($0.dropFirst(2)) : nil } }
        let firstNumber = try #require(number(first))
        let secondNumber = try #require(number(try demoJSON(second)["token"] as? String))
        #expect(firstNumber >= 1)
        // Only this test asks this origin for tokens, so the two refreshes are consecutive.
        #expect(secondNumber == firstNumber + 1)
        let get = try demoGet("/token")
        #expect(get.status == 405)
        #expect(get.header("allow") == "POST")
    }

    @Test(arguments: ["/json", "/users/3"])
    func entityTagAnswers304(path: String) throws {
        let full = try demoGet(path)
        #expect(full.status == 200)
        #expect(full.header("cache-control") == "no-cache")
        let tag = try #require(full.header("etag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18)
        for condition in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
            let cached = try demoGet(path, headers: "If-None-Match: \(condition)\r\n")
            #expect(cached.status == 304, "\(condition)")
            #expect(cached.body.isEmpty && cached.contentLength == nil, "\(condition)")
            #expect(cached.header("etag") == tag, "\(condition)")
        }
        let changed = try demoGet(path, headers: "If-None-Match: \"0000000000000000\"\r\n")
        #expect(changed.status == 200)
        #expect(changed.body == full.body)
        let head = try demoGet(path, method: "HEAD", headers: "If-None-Match: \(tag)\r\n")
        #expect(head.status == 304)
    }

    @Test func entityTagsDifferPerDocument() throws {
        let tags = try ["/json", "/users/1", "/users/2"].map { try demoGet($0).header("etag") }
        #expect(Set(tags.compactMap { $0 }).count == 3)
        #expect(try demoGet("/users/1").header("etag") == tags[1])
        #expect(try demoGet("/users/99").header("etag") == nil)
    }

    @Test func ifNoneMatchComparison() {
        let tag = "\"abc\""
        #expect(DemoOriginETag.matches(ifNoneMatch: "\"abc\"", tag: tag))
        #expect(DemoOriginETag.matches(ifNoneMatch: "W/\"abc\"", tag: tag))
        #expect(DemoOriginETag.matches(ifNoneMatch: " \"x\" ,\t\"abc\" ", tag: tag))
        #expect(DemoOriginETag.matches(ifNoneMatch: "*", tag: tag))
        #expect(!DemoOriginETag.matches(ifNoneMatch: "abc", tag: tag))
        #expect(!DemoOriginETag.matches(ifNoneMatch: "\"abcd\"", tag: tag))
        #expect(!DemoOriginETag.matches(ifNoneMatch: "", tag: tag))
    }

    @Test func lastEventIDChoosesTheFirstEvent() {
        func first(_ lastEventID: String?) -> Int? {
            var head = HTTPHead()
            head.method = "GET"
            head.target = Array("/sse/5?interval_ms=10".utf8)
            if let lastEventID { head.headers.add(name: "Last-Event-ID", value: lastEventID) }
            guard case let .events(count, first, interval) = DemoOriginRouter.route(DemoOriginRequest(head: head, peer: nil)),
                  count == 5, interval == 10 else { return nil }
            return first
        }
        #expect(first(nil) == 0)
        #expect(first("0") == 1)
        #expect(first("3") == 4)
        #expect(first("4") == 5)
        // Not an id of this stream: start over.
        #expect(first("5") == 0)
        #expect(first("-1") == 0)
        #expect(first("abc") == 0)
    }

    @Test func eventStreamResumesAfterLastEventID() throws {
        let resumed = try demoGet("/sse/5?interval_ms=10", headers: "Last-Event-ID: 2\r\n")
        #expect(resumed.status == 200)
        #expect(resumed.header("content-type") == "text/event-stream")
        #expect(resumed.text == "id: 3\ndata: {\"n\": 3}\n\nid: 4\ndata: {\"n\": 4}\n\n")
        let finished = try demoGet("/sse/5?interval_ms=10", headers: "Last-Event-ID: 4\r\n")
        #expect(finished.status == 200 && finished.body.isEmpty && finished.chunked)
        let fresh = try demoGet("/sse/3?interval_ms=10", headers: "Last-Event-ID: nope\r\n")
        #expect(fresh.text.hasPrefix("id: 0\n") && fresh.text.hasSuffix("id: 2\ndata: {\"n\": 2}\n\n"))
    }

    @Test func indexListsTheTokenEndpoint() throws {
        let endpoints = try demoJSON(try demoGet("/"))["endpoints"] as? [String]
        #expect(endpoints?.contains("POST /token") == true)
    }
}
