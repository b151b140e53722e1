import Foundation
import Testing
import FaultlineTestSupport

/// `faultline check-config` on the HTTP/2 keys: the http2 block, the upstream protocol and
/// the HTTP/2 fault kinds load; a protocol that does not fit the scheme is named.
@Suite struct CheckConfigHTTP2Tests {
    @Test func acceptsTheHTTP2KeysAndKinds() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("h2.json", #"""
        {"listeners": [{"address": "127.0.0.1:0"}],
         "http2": {"max_concurrent_streams": 200, "max_frame_size": 32768, "max_stream_resets": {"burst": 100, "per_second": 10}},
         "upstreams": {"grpc": {"url": "http://127.0.0.1:9", "protocol": "h2c"},
                       "plain": {"url": "http://127.0.0.1:9", "protocol": "http/1.1"}},
         "routes": [{"name": "r", "upstream": "grpc", "faults": [
            {"rst_stream": {"error_code": "refused_stream"}, "when": {"probability": 0.1}},
            {"goaway": {"mode": "immediate", "error_code": 11}, "when": {"every_nth": 50}},
            {"goaway": {}, "when": {"every_nth": 7}},
            {"reset": {"after_bytes": 100, "error_code": "CANCEL"}, "when": {"first_n": 1}}]}]}
        """#)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func namesAProtocolThatDoesNotFitTheScheme() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("bad.json", #"""
        {"listeners": [{"address": "127.0.0.1:0"}],
         "http2": {"max_frame_size": 100},
         "upstreams": {"demo": {"url": "http://127.0.0.1:9", "protocol": "h2"}},
         "routes": [{"name": "r", "upstream": "demo", "faults": [{"goaway": {"error_code": "CANCEL"}}]}]}
        """#)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 3)
        #expect(result.output.contains(#"upstreams.demo.protocol: "h2" needs an https:// upstream"#), "\(result.output)")
        #expect(result.output.contains("http2.max_frame_size: expected an integer 16384...16777215, got 100"), "\(result.output)")
        #expect(result.output.contains(#"routes[0].faults[0].goaway.error_code: applies only to mode "immediate""#), "\(result.output)")
    }
}
