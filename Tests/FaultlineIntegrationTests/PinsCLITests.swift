import Foundation
import Testing
import FaultlineTestSupport

/// `openssl s_server` serving a chain on a loopback port, killed when dropped.
private final class OpenSSLServer: Sendable {
    let child: ChildProcess
    let port: Int

    /// Serves `certificate` with `key`, sending the certificates of `chain` after it.
    init(directory: TemporaryDirectory, certificate: String, key: String, chain: String) async throws {
        let port = try FreePort.available()
        child = try ChildProcess(executable: "/usr/bin/openssl",
                                 arguments: ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key,
                                             "-cert_chain", chain,
                                             "-naccept", "20", "-www"],
                                 directory: directory.url)
        self.port = port
        try await child.output.waitForLine(containing: "ACCEPT", timeout: .seconds(10))
    }

    var target: String { "127.0.0.1:\(port)" }
}

/// `faultline pins compute|check` through the real binary against files and `openssl s_server`.
@Suite(.timeLimit(.minutes(2)))
struct PinsCLITests {
    /// A root → intermediate → leaf chain made with the openssl CLI, plus pins by the openssl CLI pipeline.
    static func makeChain(in directory: TemporaryDirectory) async throws -> [String: String] {
        let script = """
            set -e
            ec="-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
            openssl req -x509 $ec -keyout root.key -out root.pem -subj '/CN=Test Root' -days 2 \
              -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
            openssl req $ec -keyout int.key -out int.csr -subj '/CN=Test Intermediate'
            printf 'basicConstraints=critical,CA:TRUE\\nkeyUsage=critical,keyCertSign\\n' > int.ext
            openssl x509 -req -in int.csr -CA root.pem -CAkey root.key -CAcreateserial -out int.pem -days 2 -extfile int.ext
            openssl req $ec -keyout leaf.key -out leaf.csr -subj '/CN=localhost'
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > leaf.ext
            openssl x509 -req -in leaf.csr -CA int.pem -CAkey int.key -CAcreateserial -out leaf.pem -days 1 -extfile leaf.ext
            cat leaf.pem int.pem > chain.pem
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out backup.key
            pin() { openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64; }
            echo "root=$(openssl x509 -in root.pem -noout -pubkey | pin)"
            echo "int=$(openssl x509 -in int.pem -noout -pubkey | pin)"
            echo "leaf=$(openssl x509 -in leaf.pem -noout -pubkey | pin)"
            echo "backup=$(openssl pkey -in backup.key -pubout | pin)"
            echo "csr=$(openssl req -in leaf.csr -noout -pubkey | pin)"
            echo "fingerprint=$(openssl x509 -in leaf.pem -noout -fingerprint -sha256 | cut -d= -f2)"
            """
        let result = try await CertsCLITests.shell(script + " 2>/dev/null", in: directory)
        guard result.status == 0 else { throw TestFailure("chain script failed: \(result.output)") }
        var values: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return values
    }

    @Test func computeMatchesTheOpenSSLPipelineForFiles() async throws {
        let directory = try TemporaryDirectory()
        let pins = try await Self.makeChain(in: directory)
        let chain = try await FaultlineProcess.command(["pins", "compute", directory.path("chain.pem")])
        #expect(chain.status == 0, "\(chain.output)")
        let leafPin = try #require(pins["leaf"]), intPin = try #require(pins["int"])
        #expect(chain.output.contains("#0 leaf") && chain.output.contains("sha256/\(leafPin)"), "\(chain.output)")
        #expect(chain.output.contains("#1 intermediate") && chain.output.contains("sha256/\(intPin)"), "\(chain.output)")
        #expect(chain.output.contains("subject:  CN=localhost"))
        for (file, pin) in [("leaf.key", "leaf"), ("leaf.csr", "csr"), ("backup.key", "backup"), ("root.pem", "root")] {
            let result = try await FaultlineProcess.command(["pins", "compute", directory.path(file), "--format", "json"])
            #expect(result.status == 0, "\(file): \(result.output)")
            let expected = try #require(pins[pin])
            #expect(result.output.contains("\"pin\" : \"\(expected)\""), "\(file): \(result.output)")
        }
        let missing = try await FaultlineProcess.command(["pins", "compute", directory.path("nope.pem")])
        #expect(missing.status == 2)
        try directory.write("junk.pem", "-----BEGIN NOTHING-----\naGVsbG8=\n-----END NOTHING-----\n")
        let junk = try await FaultlineProcess.command(["pins", "compute", directory.path("junk.pem")])
        #expect(junk.status == 2 && junk.output.contains("junk.pem") && junk.output.contains("NOTHING"), "\(junk.output)")
    }

    @Test func computeOfALiveServerShowsTheServedChain() async throws {
        let directory = try TemporaryDirectory()
        let pins = try await Self.makeChain(in: directory)
        let server = try await OpenSSLServer(directory: directory, certificate: "leaf.pem", key: "leaf.key", chain: "int.pem")
        let result = try await FaultlineProcess.command(["pins", "compute", server.target, "--ca", directory.path("root.pem"),
                                                         "--format", "json"])
        #expect(result.status == 0, "\(result.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let served = try #require(json["served_chain"] as? [[String: Any]])
        #expect(served.compactMap { $0["pin"] as? String } == [pins["leaf"], pins["int"]].compactMap { $0 })
        #expect(json["verified"] as? Bool == true)
        let verified = try #require(json["verified_chain"] as? [[String: Any]])
        #expect(verified.compactMap { $0["position"] as? String } == ["leaf", "intermediate", "root"])
        // Without the CA it still shows the chain, and says it did not verify.
        let untrusted = try await FaultlineProcess.command(["pins", "compute", server.target])
        #expect(untrusted.status == 0, "\(untrusted.output)")
        let leafPin = try #require(pins["leaf"])
        #expect(untrusted.output.contains("NOT verified") && untrusted.output.contains(leafPin))
    }

    @Test func checkExitCodes() async throws {
        let directory = try TemporaryDirectory()
        let pins = try await Self.makeChain(in: directory)
        let server = try await OpenSSLServer(directory: directory, certificate: "leaf.pem", key: "leaf.key", chain: "int.pem")
        let ca = directory.path("root.pem")
        let leaf = try #require(pins["leaf"]), int = try #require(pins["int"]), root = try #require(pins["root"])
        let backup = try #require(pins["backup"])
        let check = { (extra: [String]) in
            try await FaultlineProcess.command(["pins", "check", server.target, "--ca", ca] + extra)
        }
        // Every spelling, each position.
        let pass = try await check(["--pins", "sha256/\(leaf),sha256//\(backup)"])
        #expect(pass.status == 0, "\(pass.output)")
        #expect(pass.output.contains("matched #0 leaf CN=localhost"), "\(pass.output)")
        let intermediate = try await check(["--pins", "pin-sha256=\"\(int)\",\(backup)"])
        #expect(intermediate.status == 0 && intermediate.output.contains("matched #1 intermediate CN=Test Intermediate"))
        #expect(intermediate.output.contains("pins match only the intermediate"), "\(intermediate.output)")
        let rootOnly = try await check(["--pins", "\(root),\(backup)", "--format", "json"])
        #expect(rootOnly.status == 0, "\(rootOnly.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(rootOnly.output.utf8)) as? [String: Any])
        let live = try #require(json["live"] as? [String: Any])
        let matches = try #require(live["matches"] as? [[String: Any]])
        #expect(matches.first?["position"] as? String == "root")
        #expect(json["result"] as? String == "pass")
        // Mismatch: exit 1; the candidate (rotation) set is reported in shadow.
        let mismatch = try await check(["--pins", backup, "--candidate", "\(leaf),\(backup)"])
        #expect(mismatch.status == 1, "\(mismatch.output)")
        #expect(mismatch.output.contains("live pins: FAIL") && mismatch.output.contains("candidate pins"), "\(mismatch.output)")
        let gated = try await check(["--pins", "\(leaf),\(backup)", "--candidate", backup, "--require-candidate"])
        #expect(gated.status == 1, "\(gated.output)")
        // Untrusted chain (no --ca): exit 1 before pins are looked at.
        let untrusted = try await FaultlineProcess.command(["pins", "check", server.target, "--pins", "\(leaf),\(backup)"])
        #expect(untrusted.status == 1 && untrusted.output.contains("NOT trusted"), "\(untrusted.output)")
        // Usage and connection errors: exit 2; a fingerprint gets the explanation.
        let fingerprint = try await check(["--pins", try #require(pins["fingerprint"])])
        #expect(fingerprint.status == 2 && fingerprint.output.contains("fingerprint"), "\(fingerprint.output)")
        #expect(try await check(["--pins", "not-base64!"]).status == 2)
        #expect(try await FaultlineProcess.command(["pins", "check", server.target]).status == 2)
        let refused = try await FaultlineProcess.command(["pins", "check", "127.0.0.1:\(try FreePort.closed())",
                                                          "--pins", "\(leaf),\(backup)", "--timeout-ms", "3000"])
        #expect(refused.status == 2, "\(refused.output)")
        let help = try await FaultlineProcess.command(["pins", "check", "--help"])
        #expect(help.status == 0 && help.output.contains("Usage"))
    }
}
