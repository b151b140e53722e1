import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import FaultlineDemoOrigin

/// Parses a JSON object body.
func demoJSON(_ response: DemoOriginTestResponse) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(response.body))
    guard let dictionary = object as? [String: Any] else { throw DemoOriginTestError("not an object: \(response.text)") }
    return dictionary
}

/// One request on a fresh connection.
func demoGet(_ target: String, method: String = "GET", headers: String = "", body: [UInt8] = []) throws -> DemoOriginTestResponse {
    let client = try DemoOriginFixture.client()
    try client.request(method, target, headers: headers, body: body)
    return try client.readResponse(toHead: method == "HEAD")
}

@Suite("Demo origin endpoints", .timeLimit(.minutes(1)))
struct DemoOriginEndpointTests {
    @Test func indexListsEndpoints() throws {
        let response = try demoGet("/")
        #expect(response.status == 200)
        #expect(response.header("server") == "faultline-demo-origin")
        #expect(response.header("content-type") == "application/json")
        let endpoints = try demoJSON(response)["endpoints"] as? [String]
        #expect(endpoints?.contains("GET /json") == true)
    }

    @Test func jsonThroughURLSession() async throws {
        let port = try DemoOriginFixture.port()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/json"))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration)
        let (data, response) = try await session.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let slideshow = object?["slideshow"] as? [String: Any]
        #expect(slideshow?["title"] as? String == "Sample Slide Show")
        #expect((slideshow?["slides"] as? [Any])?.count == 2)
    }

    @Test func sixtyFourIsExactlySixtyFourBytes() throws {
        let response = try demoGet("/64")
        #expect(response.status == 200)
        #expect(response.body.count == 64)
        #expect(response.header("content-type") == "text/plain")
        #expect(response.contentLength == 64)
    }

    @Test func usersSearchDecodesTheQuery() throws {
        let all = try demoJSON(try demoGet("/users"))["results"] as? [[String: Any]]
        #expect(all?.count == 20)
        let plus = try demoJSON(try demoGet("/users?q=ada+LOVE"))
        #expect(plus["query"] as? String == "ada LOVE")
        #expect((plus["results"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ada Lovelace"])
        let percent = try demoJSON(try demoGet("/users?q=%41n"))
        let names = (percent["results"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(names.contains("Alan Turing") && names.contains("Frances Allen"))
        #expect(names.allSatisfy { $0.lowercased().contains("an") })
        let none = try demoJSON(try demoGet("/users?q=zzz"))
        #expect((none["results"] as? [Any])?.isEmpty == true)
    }

    @Test func userById() throws {
        let user = try demoJSON(try demoGet("/users/3"))
        #expect(user["id"] as? Int == 3)
        #expect(user["name"] as? String == "Grace Hopper")
        #expect(user["email"] as? String == "grace.hopper@example.com")
        #expect(try demoGet("/users/99").status == 404)
        #expect(try demoGet("/users/abc").status == 404)
    }

    @Test func statusCodes() throws {
        let teapot = try demoGet("/status/418")
        #expect(teapot.status == 418)
        #expect(try demoJSON(teapot)["status"] as? Int == 418)
        let noContent = try demoGet("/status/204")
        #expect(noContent.status == 204 && noContent.body.isEmpty && noContent.contentLength == nil)
        let notModified = try demoGet("/status/304")
        #expect(notModified.status == 304 && notModified.body.isEmpty)
        #expect(try demoGet("/status/503").status == 503)
        #expect(try demoGet("/status/101").status == 400)
        #expect(try demoGet("/status/600").status == 400)
        #expect(try demoGet("/status/x").status == 400)
    }

    @Test func unknownPathAndWrongMethod() throws {
        let missing = try demoGet("/nope/deeper?x=1")
        #expect(missing.status == 404)
        let body = try demoJSON(missing)
        #expect(body["error"] as? String == "no such endpoint")
        #expect(body["path"] as? String == "/nope/deeper")
        let wrong = try demoGet("/json", method: "POST", body: Array("{}".utf8))
        #expect(wrong.status == 405)
        #expect(wrong.header("allow") == "GET, HEAD")
        #expect(try demoGet("/nope", method: "DELETE").status == 404)
    }

    @Test func headersAndIP() throws {
        let headers = try demoJSON(try demoGet("/headers", headers: "X-Demo: one\r\nx-demo: two\r\n"))["headers"] as? [String: String]
        #expect(headers?["x-demo"] == "one, two")
        #expect(headers?["host"] == "origin.test")
        let ip = try demoJSON(try demoGet("/ip"))
        #expect(ip["origin"] as? String == "127.0.0.1")
        #expect((ip["port"] as? Int ?? 0) > 0)
    }

    @Test func delayWaitsOnTheLoop() throws {
        let client = try DemoOriginFixture.client()
        let start = ContinuousClock.now
        try client.request("GET", "/delay/150")
        let response = try client.readResponse()
        let elapsed = ContinuousClock.now - start
        #expect(response.status == 200)
        #expect(try demoJSON(response)["delayed_ms"] as? Int == 150)
        #expect(elapsed >= .milliseconds(145))
        #expect(elapsed < .seconds(3))
        #expect(try demoGet("/delay/60001").status == 400)
    }

    @Test func echoSummarisesTheRequest() throws {
        let body = Array("hello, echo".utf8)
        let response = try demoGet("/echo?a=1&b=x+y", method: "PUT", headers: "Content-Type: text/plain\r\n", body: body)
        #expect(response.status == 200)
        let echo = try demoJSON(response)
        #expect(echo["method"] as? String == "PUT")
        #expect(echo["path"] as? String == "/echo")
        #expect(echo["query"] as? String == "a=1&b=x+y")
        #expect((echo["args"] as? [String: String])?["b"] == "x y")
        #expect((echo["headers"] as? [String: String])?["content-type"] == "text/plain")
        #expect(echo["body_bytes"] as? Int == body.count)
        // sha256("hello, echo")
        let digest = DemoOriginDigest()
        body.withUnsafeBytes { digest.update($0) }
        #expect(echo["body_sha256"] as? String == digest.finishHex())
        let empty = try demoJSON(try demoGet("/echo"))
        #expect(empty["body_sha256"] as? String == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func headMirrorsGet() throws {
        for target in ["/", "/json", "/64", "/users/2", "/status/418", "/bytes/1000", "/stream/3", "/sse/2?interval_ms=10"] {
            let client = try DemoOriginFixture.client()
            try client.request("GET", target)
            let get = try client.readResponse()
            try client.request("HEAD", target)
            let head = try client.readResponse(toHead: true)
            #expect(head.status == get.status, "\(target)")
            #expect(head.body.isEmpty, "\(target)")
            #expect(head.contentLength == get.contentLength, "\(target)")
            #expect(head.chunked == get.chunked, "\(target)")
            #expect(head.header("content-type") == get.header("content-type"), "\(target)")
            // The connection is still in step after the bodiless answer.
            try client.request("GET", "/64")
            #expect(try client.readResponse().body.count == 64, "\(target)")
        }
    }
}
