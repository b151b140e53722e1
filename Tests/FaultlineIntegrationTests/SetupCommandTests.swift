import Foundation
import Testing
import FaultlineTestSupport

/// `faultline setup TARGET` through the real binary: each target's output names the address
/// and port that target must use, and the Android system-store file name is the CA's subject
/// hash as openssl computes it.
@Suite("faultline setup", .timeLimit(.minutes(3)))
struct SetupCommandTests {
    private static func certs() async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let made = try await FaultlineProcess.command(["certs", "init", "--dir", directory.path("certs")])
        guard made.status == 0 else { throw TestFailure("certs init: \(made.output)") }
        return (directory, directory.path("certs"))
    }

    @Test func iosSimulatorUsesTheMacsLoopbackAndItsKeychain() async throws {
        let (directory, certs) = try await Self.certs()
        _ = directory
        let result = try await FaultlineProcess.command(["setup", "ios-simulator", "--proxy", "127.0.0.1:18888",
                                                        "--admin", "127.0.0.1:19901", "--certs", certs])
        #expect(result.status == 0, "\(result.output)")
        for expected in ["xcrun simctl keychain booted add-root-cert \(certs)/ca.pem",
                         "networksetup -setwebproxy Wi-Fi 127.0.0.1 18888", "networksetup -setsecurewebproxy Wi-Fi 127.0.0.1 18888",
                         "networksetup -setautoproxyurl Wi-Fi http://127.0.0.1:19901/proxy.pac",
                         "\"clients\": [\"127.0.0.1\"]", "http://127.0.0.1:19901/sessions", "Faultline development CA"] {
            #expect(result.output.contains(expected), "missing \(expected):\n\(result.output)")
        }
    }

    @Test func androidEmulatorUses10002AndTheSubjectHash() async throws {
        let (directory, certs) = try await Self.certs()
        let result = try await FaultlineProcess.command(["setup", "android-emulator", "--proxy", "127.0.0.1:18888",
                                                        "--admin", "127.0.0.1:19901", "--certs", certs])
        #expect(result.status == 0, "\(result.output)")
        let hash = try await Blocking.run {
            try Command.run(["openssl", "x509", "-subject_hash_old", "-noout", "-in", "certs/ca.pem"], directory: directory.url).output
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hash.count == 8)
        for expected in ["adb shell settings put global http_proxy 10.0.2.2:18888", "http://10.0.2.2:19901/ca.der",
                         "<debug-overrides>", "<certificates src=\"user\" />", "android:networkSecurityConfig",
                         "/system/etc/security/cacerts/\(hash).0", "/apex/com.android.conscrypt/cacerts",
                         "adb push \(certs)/ca.pem", "\"clients\": [\"127.0.0.1\"]"] {
            #expect(result.output.contains(expected), "missing \(expected):\n\(result.output)")
        }
    }

    @Test func aDeviceGetsTheLANAddressAndTheProfileURL() async throws {
        let (directory, certs) = try await Self.certs()
        _ = directory
        let result = try await FaultlineProcess.command(["setup", "device", "--proxy", "0.0.0.0:18888", "--admin", "0.0.0.0:19901",
                                                        "--certs", certs, "--lan", "192.0.2.7"])
        #expect(result.status == 0, "\(result.output)")
        for expected in ["proxy 192.0.2.7:18888", "http://192.0.2.7:19901/faultline.mobileconfig", "Server 192.0.2.7, Port 18888",
                         "URL http://192.0.2.7:19901/proxy.pac", "Proxy hostname 192.0.2.7, Proxy port 18888",
                         "PAC URL http://192.0.2.7:19901/proxy.pac", "http://192.0.2.7:19901/ca.der",
                         "Certificate Trust Settings", "\"clients\": [\"PHONE-IP\"]", "adb reverse tcp:18888 tcp:18888"] {
            #expect(result.output.contains(expected), "missing \(expected):\n\(result.output)")
        }
        #expect(!result.output.contains("Warning"), "\(result.output)")
        // On loopback, the device is warned that it cannot reach the listeners.
        let loopback = try await FaultlineProcess.command(["setup", "device", "--certs", certs, "--lan", "192.0.2.7"])
        #expect(loopback.status == 0)
        #expect(loopback.output.contains("Warning: the forward listener is on loopback (127.0.0.1:8888)"), "\(loopback.output)")
        #expect(loopback.output.contains("Warning: the admin API is on loopback (127.0.0.1:9901)"), "\(loopback.output)")
    }

    @Test func aConfigGivesTheForwardListenerTheAdminAddressAndTheCA() async throws {
        let (directory, certs) = try await Self.certs()
        let config = """
            {"listeners": [{"address": "127.0.0.1:18888", "mode": "forward",
                            "forward": {"ca": {"certificate": "certs/ca.pem", "key": "certs/ca-key.pem"}}}],
             "admin": {"address": "127.0.0.1:19901"}, "routes": [{"name": "all"}]}
            """
        let path = try directory.write("forward.json", config)
        let result = try await FaultlineProcess.command(["setup", "android-emulator", "--config", path])
        #expect(result.status == 0, "\(result.output)")
        for expected in ["adb shell settings put global http_proxy 10.0.2.2:18888", "http://10.0.2.2:19901/ca.der",
                         "adb push \(certs)/ca.pem"] {
            #expect(result.output.contains(expected), "missing \(expected):\n\(result.output)")
        }
        // Options win over the config.
        let overridden = try await FaultlineProcess.command(["setup", "android-emulator", "--config", path, "--proxy", "127.0.0.1:17777"])
        #expect(overridden.output.contains("http_proxy 10.0.2.2:17777"), "\(overridden.output)")
        let broken = try directory.write("broken.json", #"{"listeners": [{"address": "127.0.0.1:1", "mode": "sideways"}]}"#)
        let refused = try await FaultlineProcess.command(["setup", "device", "--config", broken])
        #expect(refused.status == 3, "\(refused.output)")
        #expect(refused.output.contains("mode"), "\(refused.output)")
    }

    @Test func withoutACAItSaysHowToMakeOne() async throws {
        let directory = try TemporaryDirectory()
        let result = try await FaultlineProcess.command(["setup", "android-emulator", "--certs", directory.path("none")])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("No CA certificate at \(directory.path("none"))/ca.pem"), "\(result.output)")
        #expect(result.output.contains("-subject_hash_old"), "\(result.output)")
    }

    @Test func mistakesAreUsageErrors() async throws {
        for arguments in [["setup"], ["setup", "windows-phone"], ["setup", "device", "--proxy", "8888"],
                          ["setup", "device", "--proxy", "host:0"], ["setup", "device", "--lan", "not-an-ip"],
                          ["setup", "device", "extra", "x"], ["setup", "device", "--bogus"]] {
            let result = try await FaultlineProcess.command(arguments)
            #expect(result.status == 2, "\(arguments): \(result.output)")
            #expect(result.output.contains("Usage: faultline setup"), "\(arguments): \(result.output)")
        }
    }
}
