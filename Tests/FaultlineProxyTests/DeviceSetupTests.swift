import FaultlineConfig
import FaultlineIO
import FaultlineTLS
import Foundation
import Testing
@testable import FaultlineProxy

/// The device-setup generators: name-based UUIDs, the iOS profile, the PAC file and the
/// proxy address a device is told; and the Host rule of the public files.
@Suite("Device setup files")
struct DeviceSetupTests {
    private static func ca(_ name: String = "Faultline Test CA") throws -> Certificate {
        try CertificateMinter.rootCA(commonName: name, key: try CertificateKey.generate(), validity: .days(3, from: Date())).certificate
    }

    @Test func nameBasedUUIDsMatchRFC9562VersionFive() {
        // uuid.uuid5(uuid.NAMESPACE_DNS, "python.org") in Python.
        let dns: [UInt8] = [0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]
        #expect(NameBasedUUID.make(namespace: dns, name: "python.org") == "886313E1-3B8A-5372-9B90-0C9AEE199E5D")
        #expect(NameBasedUUID.make(name: "a") == NameBasedUUID.make(name: "a"))
        #expect(NameBasedUUID.make(name: "a") != NameBasedUUID.make(name: "b"))
    }

    @Test func theProfileHoldsTheCertificateAsARootPayloadWithStableUUIDs() throws {
        let certificate = try Self.ca()
        let bytes = try MobileConfigProfile.data(for: certificate)
        #expect(try MobileConfigProfile.data(for: certificate) == bytes)
        let parsed = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        let profile = try #require(parsed as? [String: Any])
        #expect(profile["PayloadType"] as? String == "Configuration")
        #expect(profile["PayloadVersion"] as? Int == 1)
        #expect((profile["PayloadDisplayName"] as? String)?.contains("Faultline") == true)
        let payloads = try #require(profile["PayloadContent"] as? [[String: Any]])
        #expect(payloads.count == 1)
        let root = try #require(payloads.first)
        #expect(root["PayloadType"] as? String == "com.apple.security.root")
        #expect((root["PayloadContent"] as? Data).map(Array.init) == certificate.derBytes)
        let uuids = [profile["PayloadUUID"] as? String, root["PayloadUUID"] as? String].compactMap { $0 }
        #expect(uuids.count == 2 && uuids[0] != uuids[1])
        // Another CA: other identifiers, so both profiles can be installed side by side.
        let other = try PropertyListSerialization.propertyList(from: Data(try MobileConfigProfile.data(for: try Self.ca("Other"))),
                                                               options: [], format: nil) as? [String: Any]
        #expect(other?["PayloadUUID"] as? String != uuids[0])
        #expect(other?["PayloadIdentifier"] as? String != profile["PayloadIdentifier"] as? String)
    }

    @Test func thePACFileSendsInterceptedAndPassThroughHostsToTheProxy() throws {
        let intercept = try ["api.example.com", "*.staging.example", "[::1]"].map { try #require(HostPattern($0)) }
        let passThrough = [try #require(HostPattern("*.bank.example"))]
        let script = ProxyAutoConfig(proxy: "192.168.1.20:8888", intercept: intercept, passThrough: passThrough).script
        #expect(script.contains("function FindProxyForURL(url, host)"))
        #expect(script.contains("var proxy = \"PROXY 192.168.1.20:8888\";"))
        #expect(script.contains("host == \"api.example.com\""))
        #expect(script.contains("dnsDomainIs(host, \".staging.example\")"))
        #expect(script.contains("dnsDomainIs(host, \".bank.example\")"))
        #expect(script.contains("host == \"[::1]\" || host == \"::1\""))
        #expect(script.hasSuffix("  return \"DIRECT\";\n}\n"))
        let all = ProxyAutoConfig(proxy: "[fd00::1]:8888", intercept: [], passThrough: passThrough).script
        #expect(all.hasSuffix("  return proxy;\n}\n"))
        #expect(all.contains("\"PROXY [fd00::1]:8888\""))
    }

    @Test func javaScriptStringsCannotBeEnded() {
        #expect(ProxyAutoConfig.jsString("a\"b\\c") == #""a\"b\\c""#)
        #expect(ProxyAutoConfig.jsString("x\ny\u{2028}é") == #""x\u000ay\u2028\u00e9""#)
    }

    @Test func theProxyAddressIsTheOneTheDeviceUsed() {
        // A wildcard or loopback listener: the host the device reached the admin API by.
        #expect(DeviceProxyAddress.resolve(listenerHost: "0.0.0.0", listenerPort: 8888, requestHost: "192.168.1.20:9901")
                == "192.168.1.20:8888")
        #expect(DeviceProxyAddress.resolve(listenerHost: "127.0.0.1", listenerPort: 8888, requestHost: "10.0.2.2:9901")
                == "10.0.2.2:8888")
        #expect(DeviceProxyAddress.resolve(listenerHost: "::", listenerPort: 8888, requestHost: "[FD00::5]:9901") == "[fd00::5]:8888")
        #expect(DeviceProxyAddress.resolve(listenerHost: "127.0.0.1", listenerPort: 8888, requestHost: nil) == "127.0.0.1:8888")
        // A specific address: that one.
        #expect(DeviceProxyAddress.resolve(listenerHost: "192.168.1.20", listenerPort: 8888, requestHost: "localhost:9901")
                == "192.168.1.20:8888")
        #expect(DeviceProxyAddress.resolve(listenerHost: "fd00::1", listenerPort: 8888, requestHost: "localhost:9901")
                == "[fd00::1]:8888")
    }

    @Test func anOverrideIsAHostAndAPortAndNothingElse() {
        #expect(DeviceProxyAddress.parseOverride("Laptop.local:8888") == "laptop.local:8888")
        #expect(DeviceProxyAddress.parseOverride("[fd00::1]:1") == "[fd00::1]:1")
        for bad in ["", "host", "host:", "host:0", "host:65536", "host:+1", ":8888", "a\"b:1", "a b:1", "[fd00::1:1",
                    "[]:1", "host:123456", "user@host:1", "host/x:1"] {
            #expect(DeviceProxyAddress.parseOverride(bad) == nil, "\(bad)")
        }
    }

    @Test func publicFilesAcceptAnyIPLiteralWithThePortButNoOtherName() {
        let check = AdminHostCheck(configuredHost: "127.0.0.1", port: 9901)
        for host in ["10.0.2.2:9901", "192.168.1.20:9901", "[fd00::1]:9901", "localhost:9901"] {
            #expect(check.allowsPublicFile(host), "\(host)")
        }
        #expect(!check.allows("10.0.2.2:9901"))
        for host in [nil, "", "evil.example:9901", "10.0.2.2:9902", "10.0.2.2", "[fd00::1]x:9901", "10.0.2.2:+9901"] {
            #expect(!check.allowsPublicFile(host), "\(host ?? "nil")")
        }
    }
}

extension DeviceSetupTests {
    @Test func theSourceIsTheFirstForwardListener() throws {
        let text = """
        {"listeners": [{"address": "127.0.0.1:0"},
                       {"address": "127.0.0.1:0", "mode": "forward",
                        "forward": {"ca": {"certificate": "ca/root.pem", "key": "ca/root-key.pem"},
                                    "intercept": ["api.example.com"], "pass_through": ["*.bank.example"]}}],
         "routes": [{"name": "all"}]}
        """
        let config = try ConfigLoader.parse(Data(text.utf8), file: "/etc/f/faultline.json", baseDirectory: "/etc/f")
        let bound = [try #require(SocketAddress(ip: "127.0.0.1", port: 8080)), try #require(SocketAddress(ip: "127.0.0.1", port: 8888))]
        let source = DeviceSetupSource(config: config, bound: bound)
        #expect(source.caCertificatePath == "/etc/f/ca/root.pem")
        #expect(source.listener?.port == 8888)
        #expect(source.intercept.map(\.description) == ["api.example.com"])
        #expect(source.passThrough.map(\.description) == ["*.bank.example"])
        // Without a forward listener: the default CA path, and no proxy for a PAC file.
        let reverse = try ConfigLoader.parse(Data(#"{"listeners": [{"address": "127.0.0.1:0"}], "routes": [{"name": "all", "upstream": "u"}], "upstreams": {"u": {"url": "http://127.0.0.1:1"}}}"#.utf8),
                                             file: "/etc/f/faultline.json", baseDirectory: "/etc/f")
        let plain = DeviceSetupSource(config: reverse, bound: Array(bound.prefix(1)))
        #expect(plain.caCertificatePath == "certs/ca.pem")
        #expect(plain.listener == nil)
    }
}
