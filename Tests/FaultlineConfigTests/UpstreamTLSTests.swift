import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineConfig

@Suite("HTTPS upstreams")
struct UpstreamTLSTests {
    @Test func httpsDefaults() throws {
        let config = try loadConfig(httpsUpstream())
        let staging = try #require(config.upstream(named: "staging"))
        #expect(staging.scheme == "https")
        #expect(staging.isTLS)
        #expect(staging.port == 443)
        #expect(staging.hostHeaderValue == "staging.example.com")
        #expect(staging.tls == UpstreamTLSConfig(
            serverName: "staging.example.com", trust: UpstreamTrustConfig(caFile: nil, system: true),
            minVersion: .tls12, verifyHostname: true, pins: nil))
        #expect(staging.tls?.sniName == "staging.example.com")
        #expect(staging.pins == nil)
        let plain = try #require(try loadConfig(minimal()).upstream(named: "demo"))
        #expect(!plain.isTLS)
        #expect(plain.tls == nil)
    }

    @Test(arguments: [
        ("https://Staging.Example.com:8443/", "staging.example.com", UInt16(8443), "staging.example.com:8443"),
        ("HTTPS://10.0.0.1", "10.0.0.1", 443, "10.0.0.1"),
        ("https://[::1]:443", "::1", 443, "[::1]"),
        ("https://example.com:80", "example.com", 80, "example.com:80"),
    ])
    func httpsURLForms(url: String, host: String, port: UInt16, hostHeader: String) throws {
        let staging = try #require(try loadConfig(httpsUpstream(url: url)).upstream(named: "staging"))
        #expect(staging.host == host)
        #expect(staging.port == port)
        #expect(staging.hostHeaderValue == hostHeader)
        #expect(staging.tls?.serverName == host)
    }

    @Test func ipLiteralIsVerifiedButNotSentAsSNI() throws {
        let byURL = try #require(try loadConfig(httpsUpstream(url: "https://[::1]:8443")).upstream(named: "staging")?.tls)
        #expect(byURL.serverNameIsIPAddress)
        #expect(byURL.sniName == nil)
        let named = try #require(try loadConfig(httpsUpstream(#""server_name": "Origin.Internal.""#, url: "https://10.0.0.7"))
            .upstream(named: "staging")?.tls)
        #expect(named.serverName == "origin.internal")
        #expect(named.sniName == "origin.internal")
        let bracketed = try loadConfig(httpsUpstream(#""server_name": "[::1]""#)).upstream(named: "staging")?.tls
        #expect(bracketed?.serverName == "::1")
        #expect(bracketed?.sniName == nil)
    }

    @Test func trustMinVersionAndVerifyHostname() throws {
        let directory = try TemporaryDirectory(placeholders: ["certs/staging-ca.pem"])
        defer { directory.remove() }
        let path = try directory.writeConfig(httpsUpstream(
            #""trust": {"ca_file": "certs/staging-ca.pem", "system": false}, "min_version": "1.3", "verify_hostname": true"#))
        let tls = try #require(try ConfigLoader.load(path: path).upstream(named: "staging")?.tls)
        #expect(tls.trust == UpstreamTrustConfig(caFile: directory.path("certs/staging-ca.pem"), system: false))
        #expect(tls.minVersion == .tls13)
        #expect(tls.verifyHostname)
        let both = try loadConfig(httpsUpstream(#""trust": {"ca_file": "\#(directory.path("certs/staging-ca.pem"))"}"#))
        #expect(both.upstream(named: "staging")?.tls?.trust.system == true)
        #expect(try loadConfig(httpsUpstream(#""trust": {}"#)).upstream(named: "staging")?.tls?.trust == UpstreamTrustConfig())
    }

    @Test func hostnameVerificationOffLoadsWithALoudWarning() throws {
        let (config, warnings) = try loadWithWarnings(httpsUpstream(#""verify_hostname": false"#))
        #expect(config.upstream(named: "staging")?.tls?.verifyHostname == false)
        #expect(warnings == [
            "upstreams.staging.verify_hostname: hostname verification is OFF: any certificate that chains to a trusted CA "
                + "is accepted whatever name it was issued for, so a man in the middle goes unnoticed; use only with a test chain",
        ])
    }

    @Test(arguments: [
        (#""trust": {"system": false}"#, "upstreams.staging.trust: expected ca_file or system: true, got neither"),
        (#""trust": {"ca_file": "/nonexistent/ca.pem"}"#,
         #"upstreams.staging.trust.ca_file: cannot read "/nonexistent/ca.pem": No such file or directory"#),
        (#""trust": {"ca_file": ""}"#, #"upstreams.staging.trust.ca_file: expected a file path, got """#),
        (#""trust": {"system": "yes"}"#, #"upstreams.staging.trust.system: expected true or false, got "yes""#),
        (#""trust": {"ca": "x"}"#, #"upstreams.staging.trust.ca: unknown key (known: ca_file, system)"#),
        (#""trust": true"#, "upstreams.staging.trust: expected an object, got true"),
        (#""min_version": "1.0""#, #"upstreams.staging.min_version: expected "1.2" or "1.3", got "1.0""#),
        (#""verify_hostname": "false""#, #"upstreams.staging.verify_hostname: expected true or false, got "false""#),
        (#""server_name": "a.com:443""#, #"upstreams.staging.server_name: expected a host name or IP literal without a port, got "a.com:443""#),
        (#""server_name": 7"#, "upstreams.staging.server_name: expected a host name or IP literal, got 7"),
        (#""servername": "a""#, #"upstreams.staging.servername: unknown key; did you mean "server_name"?"#),
    ])
    func reportsExactly(members: String, expected: String) {
        #expect(configErrors(httpsUpstream(members)) == [expected])
    }

    @Test func tlsKeysOnAnInvalidHTTPSURLAreStillChecked() {
        #expect(configErrors(httpsUpstream(#""min_version": "1.1""#, url: "https://a/b")) == [
            #"upstreams.staging.url: expected https://host[:port] without a path (the client's path is forwarded as is), got "https://a/b""#,
            #"upstreams.staging.min_version: expected "1.2" or "1.3", got "1.1""#,
        ])
    }

    @Test func handBuiltUpstreamsKeepTheInvariant() {
        let https = UpstreamConfig(name: "s", scheme: "https", host: "example.com", port: 443)
        #expect(https.tls == UpstreamTLSConfig(serverName: "example.com"))
        #expect(https.hostHeaderValue == "example.com")
        let http = UpstreamConfig(name: "p", host: "example.com", tls: UpstreamTLSConfig(serverName: "x"))
        #expect(http.tls == nil)
        #expect(!http.isTLS)
    }
}
