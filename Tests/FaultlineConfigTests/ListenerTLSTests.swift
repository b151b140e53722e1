import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineConfig

@Suite("TLS listeners")
struct ListenerTLSTests {
    @Test func fullListenerFromFileResolvesRelativePaths() throws {
        let directory = try TemporaryDirectory(placeholders: [
            "certs/proxy.pem", "certs/proxy-key.pem", "certs/api.pem", "certs/api-key.pem",
            "certs/old.pem", "certs/old-key.pem", "keys/drill.pem", "keys/drill-key.pem",
        ])
        defer { directory.remove() }
        let absolute = directory.path("keys/drill.pem")
        let path = try directory.writeConfig(#"""
        {"listeners": [
           {"address": "127.0.0.1:8080"},
           {"address": "127.0.0.1:8443", "tls": {
              "certificate": "certs/proxy.pem", "key": "./certs/proxy-key.pem",
              "alpn": ["http/1.1"], "min_version": "1.3",
              "sni": [{"server_name": "API.example.com.", "certificate": "certs/api.pem", "key": "certs/api-key.pem",
                       "drill": {"certificate": "certs/old.pem", "key": "certs/old-key.pem", "label": "expired"}},
                      {"server_name": "*.example.com", "certificate": "certs/api.pem", "key": "certs/api-key.pem"}],
              "drill": {"certificate": "\#(absolute)", "key": "keys/drill-key.pem"}}}],
         "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}}
        """#)
        let config = try ConfigLoader.load(path: path)
        #expect(config.listeners.map(\.isTLS) == [false, true])
        let tls = try #require(config.listeners[1].tls)
        let base = directory.url.path
        #expect(tls.certificate == "\(base)/certs/proxy.pem")
        #expect(tls.key == "\(base)/./certs/proxy-key.pem")
        #expect(tls.alpn == ["http/1.1"])
        #expect(tls.minVersion == .tls13)
        #expect(tls.sni == [
            SNICertificateConfig(
                serverName: .exact("api.example.com"), certificate: "\(base)/certs/api.pem", key: "\(base)/certs/api-key.pem",
                drill: DrillCertificateConfig(certificate: "\(base)/certs/old.pem", key: "\(base)/certs/old-key.pem", label: "expired")),
            SNICertificateConfig(
                serverName: .wildcard(suffix: "example.com"), certificate: "\(base)/certs/api.pem", key: "\(base)/certs/api-key.pem"),
        ])
        #expect(tls.drill == DrillCertificateConfig(certificate: absolute, key: "\(base)/keys/drill-key.pem", label: "drill"))
        #expect(tls.certificate(forServerName: "Api.Example.COM")?.serverName == .exact("api.example.com"))
        #expect(tls.certificate(forServerName: "a.b.example.com")?.serverName == .wildcard(suffix: "example.com"))
        #expect(tls.certificate(forServerName: "example.com") == nil)
    }

    @Test func defaultsAndPathsKeptAsWrittenWithoutABaseDirectory() throws {
        let config = try ConfigLoader.parse(
            Data(tlsListener(#"{"certificate": "certs/proxy.pem", "key": "certs/proxy-key.pem"}"#).utf8),
            file: nil, checkFiles: false)
        #expect(config.listeners.first?.tls == ListenerTLSConfig(certificate: "certs/proxy.pem", key: "certs/proxy-key.pem"))
        #expect(config.listeners.first?.tls?.alpn == ["h2", "http/1.1"])
        #expect(config.listeners.first?.tls?.minVersion == .tls12)
        #expect(config.listeners.first?.tls?.sni == [])
        #expect(config.listeners.first?.tls?.drill == nil)
    }

    @Test func parseResolvesAgainstAGivenBaseDirectory() throws {
        let directory = try TemporaryDirectory(placeholders: ["c.pem", "k.pem"])
        defer { directory.remove() }
        let config = try ConfigLoader.parse(
            Data(tlsListener(#"{"certificate": "c.pem", "key": "k.pem"}"#).utf8), file: nil, baseDirectory: directory.url.path)
        #expect(config.listeners.first?.tls?.certificate == directory.path("c.pem"))
    }

    @Test func missingFilesAreNamedAsWritten() throws {
        let directory = try TemporaryDirectory(placeholders: ["certs/proxy.pem"])
        defer { directory.remove() }
        let path = try directory.writeConfig(tlsListener(#"{"certificate": "certs/proxy.pem", "key": "certs/x.pem"}"#))
        #expect(throws: ConfigErrors(
            errors: [ConfigError(path: "listeners[0].tls.key", message: #"cannot read "certs/x.pem": No such file or directory"#)],
            file: path)
        ) {
            try ConfigLoader.load(path: path)
        }
        // Without a base directory a relative path is taken as written (the working directory).
        #expect(configErrors(tlsListener(#"{"certificate": "\#(directory.path("certs/proxy.pem"))", "key": "no-such-dir/proxy.pem"}"#))
            == [#"listeners[0].tls.key: cannot read "no-such-dir/proxy.pem": No such file or directory; faultline certs init --dir no-such-dir mints a development CA and certificate there (ca.pem, proxy.pem, proxy-key.pem), as scripts/run.sh does on first run"#])
    }

    @Test func directoryIsNotAReadableFile() throws {
        let directory = try TemporaryDirectory(placeholders: ["certs/proxy.pem"])
        defer { directory.remove() }
        let json = tlsListener(#"{"certificate": "\#(directory.path("certs/proxy.pem"))", "key": "\#(directory.path("certs"))"}"#)
        #expect(configErrors(json) == [#"listeners[0].tls.key: cannot read "\#(directory.path("certs"))": Is a directory"#])
    }

    @Test(arguments: [
        (#"{}"#, ["listeners[0].tls.certificate: expected a file path, got nothing", "listeners[0].tls.key: expected a file path, got nothing"]),
        (#"{"certificate": "", "key": 5}"#,
         [#"listeners[0].tls.certificate: expected a file path, got """#, "listeners[0].tls.key: expected a file path, got 5"]),
        (#"{"certificate": "c", "key": "k", "alpn": ["h3", "http/1.1"]}"#,
         [#"listeners[0].tls.alpn[0]: expected "h2" or "http/1.1", got "h3""#]),
        (#"{"certificate": "c", "key": "k", "alpn": ["spdy/3"]}"#, [#"listeners[0].tls.alpn[0]: expected "h2" or "http/1.1", got "spdy/3""#]),
        (#"{"certificate": "c", "key": "k", "alpn": ["http/1.1", "http/1.1"]}"#,
         [#"listeners[0].tls.alpn[1]: duplicate protocol "http/1.1""#]),
        (#"{"certificate": "c", "key": "k", "alpn": []}"#,
         [#"listeners[0].tls.alpn: expected a non-empty array of ALPN protocol names ("h2" or "http/1.1"), got []"#]),
        (#"{"certificate": "c", "key": "k", "min_version": "1.1"}"#,
         [#"listeners[0].tls.min_version: expected "1.2" or "1.3", got "1.1""#]),
        (#"{"certificate": "c", "key": "k", "min_version": 1.2}"#,
         [#"listeners[0].tls.min_version: expected "1.2" or "1.3", got 1.2"#]),
        (#"{"certificate": "c", "key": "k", "sni": {}}"#,
         ["listeners[0].tls.sni: expected an array of {server_name, certificate, key} objects, got {}"]),
        (#"{"certificate": "c", "key": "k", "sni": [{"certificate": "c", "key": "k"}]}"#,
         [#"listeners[0].tls.sni[0].server_name: expected a host name or "*.domain" wildcard, got nothing"#]),
        (#"{"certificate": "c", "key": "k", "sni": [{"server_name": "10.0.0.1", "certificate": "c", "key": "k"}]}"#,
         [#"listeners[0].tls.sni[0].server_name: expected a host name or "*.domain" wildcard (clients never send an IP address as SNI), got "10.0.0.1""#]),
        (#"{"certificate": "c", "key": "k", "sni": [{"server_name": "a.com:443", "certificate": "c", "key": "k"}]}"#,
         [#"listeners[0].tls.sni[0].server_name: expected a host name or "*.domain" wildcard without a port, got "a.com:443""#]),
        (#"{"certificate": "c", "key": "k", "sni": [{"server_name": "a.com", "certificate": "c", "key": "k"}, {"server_name": "A.com", "certificate": "c", "key": "k"}]}"#,
         [#"listeners[0].tls.sni[1].server_name: duplicate server name "a.com" (already used by listeners[0].tls.sni[0])"#]),
        (#"{"certificate": "c", "key": "k", "sni": [{"server_name": "a.com", "cert": "c", "key": "k"}]}"#,
         ["listeners[0].tls.sni[0].cert: unknown key (known: server_name, certificate, key, drill)",
          "listeners[0].tls.sni[0].certificate: expected a file path, got nothing"]),
        (#"{"certificate": "c", "key": "k", "drill": {"certificate": "d", "label": ""}}"#,
         ["listeners[0].tls.drill.key: expected a file path, got nothing", #"listeners[0].tls.drill.label: expected a non-empty string, got """#]),
        (#"{"certificate": "c", "key": "k", "drill": true}"#, ["listeners[0].tls.drill: expected an object, got true"]),
        (#"{"certificate": "c", "key": "k", "ciphers": "ALL"}"#,
         ["listeners[0].tls.ciphers: unknown key (known: certificate, key, alpn, min_version, sni, drill)"]),
    ])
    func reportsExactly(tls: String, expected: [String]) {
        #expect(configErrorsSkippingFiles(tlsListener(tls)) == expected)
    }
}
