/// Fixed bodies the demo origin serves, built once per process.
enum DemoOriginDocuments {
    /// `/`: what the origin offers.
    static let index: [UInt8] = DemoOriginJSON.body("""
        {"name": "faultline-demo-origin", "endpoints": [\
        "GET /", "GET /json", "GET /64", "GET /users?q=TEXT", "GET /users/{id}", \
        "GET /status/{code}", "GET /delay/{ms}", "GET /bytes/{n}?chunked=1&close=1", \
        "GET /stream/{n}", "GET /sse/{n}?interval_ms=100", "ANY /echo?raw=1", \
        "GET /headers", "GET /ip", "GET /ws (WebSocket echo)", "POST /token"]}
        """)

    /// `/json`: httpbin's slideshow document.
    static let slideshow: [UInt8] = DemoOriginJSON.body("""
        {"slideshow": {"author": "Yours Truly", "date": "date of publication", \
        "slides": [{"title": "Wake up to WonderWidgets!", "type": "all"}, \
        {"items": ["Why <em>WonderWidgets</em> are great", "Who <em>buys</em> WonderWidgets"], \
        "title": "Overview", "type": "all"}], "title": "Sample Slide Show"}}
        """)

    /// The entity tag of `/json`.
    static let slideshowTag = DemoOriginETag.tag(for: slideshow)

    /// `/64`: exactly 64 bytes of text.
    static let sixtyFour: [UInt8] = Array("faultline demo origin: sixty-four bytes of text for benchmarks.\n".utf8)

    /// The whole keep-alive HTTP/1.1 response to `GET /64`, so the benchmark path is one write.
    static let sixtyFourResponse: [UInt8] = {
        var out: [UInt8] = []
        DemoOriginResponseHead.encode(status: 200, contentType: "text/plain", framing: .length(UInt64(sixtyFour.count)),
                                      keepAlive: true, http10: false, into: &out)
        return out + sixtyFour
    }()
}
