import Foundation
import Testing
import FaultlineTestSupport

/// `faultline certs init` through the real binary, checked with the openssl CLI.
@Suite(.timeLimit(.minutes(3)))
struct CertsCLITests {
    /// Runs `/bin/sh -c script` in `directory`; returns status and merged output.
    static func shell(_ script: String, in directory: TemporaryDirectory) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", script], directory: directory.url)
        let status = try await child.waitForExit(timeout: .seconds(60))
        try await Deadline.poll("output of \(script)", timeout: .seconds(30)) { child.output.isFinished ? () : nil }
        return (status, child.output.text)
    }

    @Test func initCreatesAVerifiableCAAndLeafAndIsIdempotent() async throws {
        let directory = try TemporaryDirectory()
        let dir = directory.path("certs")
        let first = try await FaultlineProcess.command(["certs", "init", "--dir", dir, "--names", "localhost,127.0.0.1", "--drills"])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("curl --cacert \(dir)/ca.pem"))
        #expect(first.output.contains("xcrun simctl keychain booted add-root-cert \(dir)/ca.pem"))
        #expect(first.output.contains("adb push"))
        #expect(first.output.contains("Certificate Trust Settings"))
        let verify = try await Self.shell("""
            openssl verify -CAfile certs/ca.pem -verify_hostname localhost certs/proxy.pem && \
            openssl verify -CAfile certs/ca.pem -verify_ip 127.0.0.1 certs/proxy.pem && \
            openssl verify -CAfile certs/ca.pem certs/drill-other-key.pem && \
            openssl x509 -in certs/ca.pem -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64 && \
            stat -c '%a %n' certs/ca-key.pem certs/proxy-key.pem certs/drill-untrusted-key.pem
            """, in: directory)
        #expect(verify.status == 0, "\(verify.output)")
        let lines = verify.output.split(separator: "\n").map(String.init)
        let caPin = try #require(lines.first { $0.hasSuffix("=") && !$0.contains(" ") })
        #expect(first.output.contains("sha256/\(caPin)"), "CA pin \(caPin) not printed:\n\(first.output)")
        #expect(lines.filter { $0.hasPrefix("600 ") }.count == 3, "\(verify.output)")
        for (drill, error) in [("expired", "certificate has expired"), ("wrong-host", "hostname mismatch"),
                               ("untrusted", "unable to get local issuer certificate")] {
            let result = try await Self.shell(
                "openssl verify -CAfile certs/ca.pem -verify_hostname localhost certs/drill-\(drill).pem 2>&1", in: directory)
            #expect(result.status != 0 && result.output.contains(error), "drill \(drill): \(result.output)")
        }
        let second = try await FaultlineProcess.command(["certs", "init", "--dir", dir])
        #expect(second.status == 0)
        #expect(second.output.contains("Kept the existing CA"))
        #expect(second.output.contains("sha256/\(caPin)"))
    }

    @Test func helpAndUsageErrors() async throws {
        let help = try await FaultlineProcess.command(["certs", "init", "--help"])
        #expect(help.status == 0 && help.output.contains("Usage"))
        #expect(try await FaultlineProcess.command(["certs"]).status == 2)
        #expect(try await FaultlineProcess.command(["certs", "frob"]).status == 2)
        #expect(try await FaultlineProcess.command(["certs", "init", "--bogus"]).status == 2)
        let directory = try TemporaryDirectory()
        try directory.write("ca.pem", "not a certificate")
        let broken = try await FaultlineProcess.command(["certs", "init", "--dir", directory.url.path])
        #expect(broken.status == 1, "\(broken.output)")
        #expect(broken.output.contains("ca-key.pem"), "\(broken.output)")
    }
}
