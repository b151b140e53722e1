import Foundation
import Synchronization
import FaultlineTestSupport

/// Certificate chains minted at test time with the `openssl` CLI in a temporary directory,
/// and their SPKI pins computed by the openssl CLI pipeline
/// (`openssl x509 -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64`).
///
/// Files (all PEM, EC P-256 keys, in `directory`):
/// - `root.pem`/`root.key` (CN=Faultline Test Root) → `int.pem`/`int.key` (CN=Faultline Test Intermediate)
/// - `leaf.pem`/`leaf.key`: CN=localhost, SAN DNS:localhost, IP:127.0.0.1, signed by the intermediate;
///   `chain.pem` = leaf + intermediate
/// - `backup.key`: a spare key never served (the backup pin)
/// - `rotated.pem`/`rotated.key`: the same names with a new key, signed by the same intermediate;
///   `rotated-chain.pem` = rotated + intermediate
/// - `wronghost.pem`/`wronghost.key`: CN=wrong.example, SAN DNS:wrong.example only; `wronghost-chain.pem`
/// - `expired.pem`/`expired.key`: localhost, valid 2020-01-01 to 2020-01-02; `expired-chain.pem`
/// - `untrusted-root.pem` (CN=Untrusted Root) → `untrusted.pem`/`untrusted.key` (localhost);
///   `untrusted-chain.pem` = untrusted leaf + untrusted root
/// - `api.pem`/`api.key`: CN=api.test, SAN DNS:api.test, signed by the intermediate; `api-chain.pem`
struct TLSChain: Sendable {
    let directory: TemporaryDirectory
    /// Base64 SPKI pins (no prefix): root, int, leaf, backup, rotated, wronghost, expired,
    /// untrusted-root, untrusted, api.
    let pins: [String: String]
    /// The leaf's SHA-256 certificate fingerprint as openssl prints it (`AB:CD:…`).
    let leafFingerprint: String

    func path(_ name: String) -> String { directory.path(name) }

    func pin(_ name: String) -> String {
        guard let pin = pins[name] else { fatalError("no pin named \(name) in \(pins.keys.sorted())") }
        return pin
    }
}

enum TLSChainFactory {
    /// Runs `/bin/sh -c script` in `directory`, bounded in time; merged output.
    static func shell(_ script: String, in directory: TemporaryDirectory,
                      timeout: Duration = .seconds(30)) async throws -> (status: Int32, output: String) {
        let url = directory.url
        let result = try await Blocking.run { try Command.shellResult(script, in: url, timeout: timeout) }
        return (result.status, result.output)
    }

    static let script = #"""
        set -e
        ec="-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
        printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n' > ca.ext
        serial=100
        # root NAME CN: a self-signed CA
        root() {
          openssl req -x509 $ec -keyout $1.key -out $1.pem -subj "/CN=$2" -days 3 \
            -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
        }
        # leaf NAME CN SAN ISSUER: a server certificate with a fresh key, valid one day
        leaf() {
          openssl req $ec -keyout $1.key -out $1.csr -subj "/CN=$2"
          printf "subjectAltName=$3\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n" > $1.ext
          serial=$((serial + 1))
          openssl x509 -req -in $1.csr -CA $4.pem -CAkey $4.key -set_serial $serial -out $1.pem -days 1 -extfile $1.ext
        }
        root root "Faultline Test Root"
        openssl req $ec -keyout int.key -out int.csr -subj "/CN=Faultline Test Intermediate"
        openssl x509 -req -in int.csr -CA root.pem -CAkey root.key -set_serial 2 -out int.pem -days 2 -extfile ca.ext
        leaf leaf localhost "DNS:localhost,IP:127.0.0.1" int
        leaf rotated localhost "DNS:localhost,IP:127.0.0.1" int
        leaf wronghost wrong.example "DNS:wrong.example" int
        leaf api api.test "DNS:api.test" int
        root untrusted-root "Untrusted Root"
        leaf untrusted localhost "DNS:localhost,IP:127.0.0.1" untrusted-root
        # An expired leaf needs explicit dates: openssl ca with a minimal config.
        openssl req $ec -keyout expired.key -out expired.csr -subj "/CN=localhost"
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > expired.ext
        : > index.txt
        echo 1000 > serial
        printf '[ca]\ndefault_ca=d\n[d]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=p\nunique_subject=no\n[p]\ncommonName=supplied\n' > ca.cnf
        openssl ca -batch -notext -config ca.cnf -cert int.pem -keyfile int.key -in expired.csr -out expired.pem \
          -startdate 20200101000000Z -enddate 20200102000000Z -extfile expired.ext
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out backup.key
        for name in leaf rotated wronghost api expired; do cat $name.pem int.pem > $name-chain.pem; done
        cp leaf-chain.pem chain.pem
        cat untrusted.pem untrusted-root.pem > untrusted-chain.pem
        pin() { openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64; }
        for name in root int leaf rotated wronghost api expired untrusted-root untrusted; do
          echo "PIN $name=$(openssl x509 -in $name.pem -noout -pubkey | pin)"
        done
        echo "PIN backup=$(openssl pkey -in backup.key -pubout | pin)"
        echo "FINGERPRINT $(openssl x509 -in leaf.pem -noout -fingerprint -sha256 | cut -d= -f2)"
        """#

    /// The chains of this test process, minted once (minting in every one of many parallel
    /// tests takes tens of seconds on two cores); removed when the process exits.
    static func make() async throws -> TLSChain {
        try await SharedChain.instance.get()
    }

    private actor SharedChain {
        static let instance = SharedChain()
        private var task: Task<TLSChain, Error>?

        func get() async throws -> TLSChain {
            if let task { return try await task.value }
            let task = Task { try await TLSChainFactory.mint() }
            self.task = task
            let chain = try await task.value
            SharedChain.removeAtExit(chain.directory.url.path)
            return chain
        }

        private static let pathToRemove = Mutex<String?>(nil)

        nonisolated static func removeAtExit(_ path: String) {
            let first = pathToRemove.withLock { old -> Bool in
                defer { old = path }
                return old == nil
            }
            if first {
                atexit {
                    if let path = SharedChain.pathToRemove.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
                }
            }
        }
    }

    /// Mints every chain above into a new temporary directory.
    static func mint() async throws -> TLSChain {
        let directory = try TemporaryDirectory()
        let result = try await shell(script + "\n", in: directory)
        guard result.status == 0 else { throw TestFailure("minting chains failed (\(result.status)):\n\(result.output)") }
        var pins: [String: String] = [:]
        var fingerprint = ""
        for line in result.output.split(separator: "\n") {
            if line.hasPrefix("PIN ") {
                let parts = line.dropFirst(4).split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { pins[parts[0]] = parts[1] }
            } else if line.hasPrefix("FINGERPRINT ") {
                fingerprint = String(line.dropFirst(12))
            }
        }
        guard pins.count == 10, pins.values.allSatisfy({ $0.count == 44 && $0.hasSuffix("=") }), !fingerprint.isEmpty else {
            throw TestFailure("unexpected pin output:\n\(result.output)")
        }
        return TLSChain(directory: directory, pins: pins, leafFingerprint: fingerprint)
    }
}
