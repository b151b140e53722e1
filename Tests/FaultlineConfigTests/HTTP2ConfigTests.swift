import Foundation
import Testing
@testable import FaultlineConfig
import FaultlineHTTP

@Suite("http2 block, HTTP/2 error codes, upstream protocol")
struct HTTP2ConfigTests {
    private func load(_ json: String) throws -> ProxyConfig {
        try ConfigLoader.parse(Data(json.utf8), file: nil, checkFiles: false)
    }

    @Test func absentBlockGivesTheDefaults() throws {
        let http2 = try load(minimal()).http2
        #expect(http2 == HTTP2Config())
        #expect(http2.maxConcurrentStreams == 100)
        #expect(http2.initialWindowSize == 262_144)
        #expect(http2.connectionWindowSize == 8_388_608)
        #expect(http2.maxHeaderListSize == 65536)
        #expect(http2.maxFrameSize == 16384)
        #expect(http2.maxStreamResets == HTTP2ResetRateLimit(burst: 1000, perSecond: 33))
        #expect(http2.maxContinuations == 8)
        #expect(http2.maxSettings == 32)
        #expect(http2.maxOutboundAcks == 1000)
        #expect(http2.maxBufferedRequestBody == 65536)
    }

    @Test func everyKeyIsRead() throws {
        let http2 = try load(minimal(#"""
            "http2": {"max_concurrent_streams": 250, "initial_window_size": 65535, "connection_window_size": 2147483647,
                      "max_header_list_size": 16384, "max_frame_size": 16777215, "max_stream_resets": {"burst": 50, "per_second": 5},
                      "max_continuations": 4, "max_settings": 16, "max_outbound_acks": 200, "max_buffered_request_body": 0}
            """#)).http2
        #expect(http2 == HTTP2Config(
            maxConcurrentStreams: 250, initialWindowSize: 65535, connectionWindowSize: 2_147_483_647, maxHeaderListSize: 16384,
            maxFrameSize: 16_777_215, maxStreamResets: HTTP2ResetRateLimit(burst: 50, perSecond: 5),
            maxContinuations: 4, maxSettings: 16, maxOutboundAcks: 200, maxBufferedRequestBody: 0))
        // One member of max_stream_resets keeps the other's default.
        let resets = try load(minimal(#""http2": {"max_stream_resets": {"per_second": 10}}"#)).http2.maxStreamResets
        #expect(resets == HTTP2ResetRateLimit(burst: 1000, perSecond: 10))
    }

    @Test(arguments: [
        (#""http2": {"max_frame_size": 1000}"#, "http2.max_frame_size: expected an integer 16384...16777215, got 1000"),
        (#""http2": {"max_frame_size": 16777216}"#, "http2.max_frame_size: expected an integer 16384...16777215, got 16777216"),
        (#""http2": {"initial_window_size": 2147483648}"#,
         "http2.initial_window_size: expected an integer 1...2147483647, got 2147483648"),
        (#""http2": {"connection_window_size": 1024}"#,
         "http2.connection_window_size: expected an integer 65535...2147483647, got 1024"),
        (#""http2": {"max_concurrent_streams": 0}"#, "http2.max_concurrent_streams: expected an integer 1...2147483647, got 0"),
        (#""http2": {"max_stream_resets": {"burst": 0}}"#, "http2.max_stream_resets.burst: expected an integer 1...1000000, got 0"),
        (#""http2": {"max_stream_resets": 5}"#, "http2.max_stream_resets: expected an object, got 5"),
        (#""http2": {"max_concurent_streams": 10}"#, #"http2.max_concurent_streams: unknown key; did you mean "max_concurrent_streams"?"#),
        (#""http2": {"max_stream_resets": {"rate": 1}}"#,
         "http2.max_stream_resets.rate: unknown key (known: burst, per_second)"),
        (#""http2": {"max_buffered_request_body": -1}"#,
         "http2.max_buffered_request_body: expected an integer 0...16777216, got -1"),
        (#""http2": {"max_buffered_request_body": 16777217}"#,
         "http2.max_buffered_request_body: expected an integer 0...16777216, got 16777217"),
        (#""http2": []"#, "http2: expected an object, got []"),
        (#""htp2": {}"#, #"htp2: unknown key; did you mean "http2"?"#),
    ])
    func refuses(_ member: String, expected: String) {
        #expect(configErrors(minimal(member)) == [expected])
    }

    @Test func errorCodesHaveTheirRFCNames() {
        #expect(HTTP2ErrorCode.names.count == 14)
        for (index, name) in HTTP2ErrorCode.names.enumerated() {
            #expect(HTTP2ErrorCode(name: name)?.rawValue == UInt32(index))
            #expect(HTTP2ErrorCode(name: name.lowercased())?.name == name)
        }
        #expect(HTTP2ErrorCode.refusedStream.rawValue == 0x7)
        #expect(HTTP2ErrorCode.enhanceYourCalm.name == "ENHANCE_YOUR_CALM")
        #expect(HTTP2ErrorCode.http11Required.description == "HTTP_1_1_REQUIRED")
        #expect(HTTP2ErrorCode(rawValue: 0xff).name == nil)
        #expect(HTTP2ErrorCode(rawValue: 0xff).description == "0xff")
        #expect(HTTP2ErrorCode(name: "REFUSED") == nil)
    }

    @Test func upstreamProtocolDefaultsToHTTP11AndAcceptsH2OnTLSAndH2COnPlain() throws {
        #expect(try load(minimal()).upstreams[0].httpProtocol == .http11)
        let h2c = try load(minimal(upstream: #"{"url": "http://127.0.0.1:8081", "protocol": "h2c"}"#))
        #expect(h2c.upstreams[0].httpProtocol == .h2c)
        let h2 = try load(minimal(upstream: #"{"url": "https://127.0.0.1:8443", "protocol": "h2"}"#))
        #expect(h2.upstreams[0].httpProtocol == .h2)
        let explicit = try load(minimal(upstream: #"{"url": "https://127.0.0.1:8443", "protocol": "http/1.1"}"#))
        #expect(explicit.upstreams[0].httpProtocol == .http11)
    }

    @Test(arguments: [
        (#"{"url": "http://127.0.0.1:8081", "protocol": "h2"}"#,
         #"upstreams.demo.protocol: "h2" needs an https:// upstream (ALPN); use "h2c" for plain HTTP/2"#),
        (#"{"url": "https://127.0.0.1:8443", "protocol": "h2c"}"#,
         #"upstreams.demo.protocol: "h2c" is plain-text HTTP/2; an https:// upstream uses "h2""#),
        (#"{"url": "http://127.0.0.1:8081", "protocol": "h3"}"#,
         #"upstreams.demo.protocol: expected "http/1.1", "h2" or "h2c", got "h3""#),
        (#"{"url": "http://127.0.0.1:8081", "protocl": "h2c"}"#, #"upstreams.demo.protocl: unknown key; did you mean "protocol"?"#),
    ])
    func refusesUpstreamProtocol(_ upstream: String, expected: String) {
        #expect(configErrorsSkippingFiles(minimal(upstream: upstream)) == [expected])
    }
}
