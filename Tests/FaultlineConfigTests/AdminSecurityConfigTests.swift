import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Admin security config")
struct AdminSecurityConfigTests {
    @Test func loopbackAddresses() throws {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"] {
            #expect(AdminConfig(address: SocketAddressSpec(host: host, port: 1)).isLoopback, "\(host)")
        }
        for host in ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "fe80::1", "::ffff:10.0.0.1"] {
            #expect(!AdminConfig(address: SocketAddressSpec(host: host, port: 1)).isLoopback, "\(host)")
        }
    }

    @Test func bodyFilesMustBeRegularAndSmall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-body-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let small = directory + "/small"
        let exact = directory + "/exact"
        let big = directory + "/big"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: small))
        try Data(count: FaultBodyFile.maxBytes).write(to: URL(fileURLWithPath: exact))
        try Data(count: FaultBodyFile.maxBytes + 1).write(to: URL(fileURLWithPath: big))
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect(try FaultBodyFile.read(small).get() == Array("hello".utf8))
        #expect(try FaultBodyFile.read(exact).get().count == FaultBodyFile.maxBytes)
        #expect(FaultBodyFile.problem(at: big)?.description.contains("larger than") == true)
        #expect(throws: FaultBodyFile.Problem.self) { try FaultBodyFile.read(big).get() }
        // Opened non-blocking: a FIFO without a writer is refused at once, not waited on.
        #expect(throws: FaultBodyFile.Problem.self) { try FaultBodyFile.read(directory + "/fifo").get() }
        #expect(throws: FaultBodyFile.Problem.self) { try FaultBodyFile.read("/dev/zero").get() }
        #expect(FaultBodyFile.problem(at: directory)?.description.contains("directory") == true)
    }

    @Test func adminRulesWithoutAConfigDirectoryTakeInlineBodiesOnly() {
        let upstreams = [UpstreamConfig(name: "demo", host: "127.0.0.1", port: 8081)]
        let rule = #"{"name": "x", "upstream": "demo", "faults": [{"status": {"code": 200, "body_file": "/etc/hostname"}}]}"#
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parseRule(Data(rule.utf8), upstreams: upstreams, baseDirectory: nil, confineFiles: true)
        }
    }
}
