import FaultlineIO
@testable import FaultlineTLS
import Testing

@Suite("TLSSession in memory", .timeLimit(.minutes(1)))
struct TLSSessionTests {
    let certs: TLSTestCertificates
    init() throws { certs = try TLSTestCertificates.load() }

    func server(alpn: [String] = ["http/1.1"], names: [String: TLSCertificateFiles] = [:],
                maximum: TLSProtocolVersion? = nil) throws -> TLSServerContext {
        try TLSServerContext(certificateChainFile: certs.leafChain, privateKeyFile: certs.leafKey,
                             alpnProtocols: alpn, serverNames: names, maximumVersion: maximum)
    }

    func client(alpn: [String] = [], verify: Bool = true) throws -> TLSClientContext {
        try TLSClientContext(trustSystemStore: false, caFile: certs.rootCA, alpnProtocols: alpn, verify: verify)
    }

    @Test("handshake and data both ways, byte by byte and in big chunks", arguments: [1, 7, 100, Int.max])
    func handshakeAndData(chunk: Int) throws {
        let pair = TLSTestPair(client: try client().makeSession(serverName: "localhost", port: 443),
                               server: try server().makeSession(), chunk: chunk)
        pair.handshake()
        #expect(pair.client.isHandshakeComplete)
        #expect(pair.server.isHandshakeComplete)
        #expect(pair.clientEvents == [.handshakeCompleted])
        #expect(pair.serverEvents == [.handshakeCompleted])
        #expect(pair.client.protocolVersion == "TLSv1.3")
        #expect(!pair.client.cipher.isEmpty)
        #expect(pair.server.serverName == "localhost")
        #expect(pair.client.peerChainDER.count == 2)
        #expect(pair.client.verifiedChainDER.count == 3)
        #expect(pair.client.verifyResult == nil)

        let request = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        let response = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(request.withUnsafeBytes { pair.client.send($0) } == .none)
        pair.pump()
        #expect(pair.serverPlaintext == request)
        #expect(response.withUnsafeBytes { pair.server.send($0) } == .none)
        pair.pump()
        #expect(pair.clientPlaintext == response)

        pair.client.shutdown()
        pair.pump()
        #expect(pair.serverEvents.last == .closed)
        #expect(pair.serverFailure == nil)
    }

    @Test("bytes right after the client's Finished are decrypted in the same receive")
    func finishedAndDataTogether() throws {
        let client = try client().makeSession(serverName: "localhost", port: 443)
        let server = try server().makeSession()
        var toServer: [UInt8] = [], toClient: [UInt8] = [], plain: [UInt8] = []
        _ = client.start()
        client.takeOutput(into: &toServer)
        #expect(toServer.withUnsafeBytes { server.receive($0, into: &plain) } == .none)
        server.takeOutput(into: &toClient)
        toServer.removeAll()
        #expect(toClient.withUnsafeBytes { client.receive($0, into: &plain) } == .handshakeCompleted)
        #expect(Array("hello".utf8).withUnsafeBytes { client.send($0) } == .none)
        client.takeOutput(into: &toServer)  // Finished and the data record in one buffer
        #expect(toServer.withUnsafeBytes { server.receive($0, into: &plain) } == .handshakeCompleted)
        #expect(plain == Array("hello".utf8))
    }

    @Test("ALPN: the server's first choice among the client's offers, or none")
    func alpn() throws {
        let both = TLSTestPair(client: try client(alpn: ["http/1.1", "h2"]).makeSession(serverName: "localhost", port: 1),
                               server: try server(alpn: ["h2", "http/1.1"]).makeSession())
        both.handshake()
        #expect(both.client.negotiatedALPN == "h2")
        #expect(both.server.negotiatedALPN == "h2")

        let noMatch = TLSTestPair(client: try client(alpn: ["spdy/3"]).makeSession(serverName: "localhost", port: 1),
                                  server: try server().makeSession())
        noMatch.handshake()
        #expect(noMatch.client.isHandshakeComplete)
        #expect(noMatch.client.negotiatedALPN == nil)

        let none = TLSTestPair(client: try client().makeSession(serverName: "localhost", port: 1),
                               server: try server().makeSession())
        none.handshake()
        #expect(none.server.negotiatedALPN == nil)
    }

    @Test("SNI picks the configured certificate; other names get the default", arguments: [
        ("api.example.com", "CN = api.example.com"), ("API.Example.COM", "CN = api.example.com"),
        ("a.example.net", "CN = *.example.net"), ("b.a.example.net", "CN = localhost"),
        ("unknown.test", "CN = localhost"),
    ])
    func sni(name: String, expectedSubject: String) throws {
        let names = ["api.example.com": TLSCertificateFiles(certificateChainFile: certs.apiChain, privateKeyFile: certs.apiKey),
                     "*.example.net": TLSCertificateFiles(certificateChainFile: certs.wildcardChain, privateKeyFile: certs.wildcardKey)]
        let pair = TLSTestPair(client: try client().makeSession(serverName: name, port: 443, verifyHostname: false),
                               server: try server(names: names).makeSession())
        pair.handshake()
        #expect(pair.client.isHandshakeComplete)
        #expect(pair.server.serverName == name)
        let leaf = try #require(pair.client.peerChainDER.first)
        #expect(TLSTestX509.subject(leaf) == expectedSubject)
        #expect(pair.client.negotiatedALPN == nil)
    }

    @Test("verification failures fail the handshake with a clear reason")
    func verificationFailures() throws {
        func failure(_ chain: String, _ key: String, host: String) throws -> String? {
            let server = try TLSServerContext(certificateChainFile: chain, privateKeyFile: key)
            let pair = TLSTestPair(client: try client().makeSession(serverName: host, port: 8443),
                                   server: server.makeSession())
            pair.handshake()
            if let reason = pair.clientFailure {
                #expect(!pair.client.isHandshakeComplete)
                #expect(pair.clientEvents.last == .failed(reason))
                // The alert tells the server why.
                #expect(pair.serverFailure?.contains("peer sent alert") == true)
            }
            return pair.clientFailure
        }
        let untrusted = try failure(certs.untrustedChain, certs.untrustedKey, host: "localhost")
        #expect(untrusted?.hasPrefix("certificate verify failed: unable to get local issuer certificate") == true)
        #expect(untrusted?.contains("peer localhost:8443, expected host localhost") == true)
        let wrongHost = try failure(certs.wrongHostChain, certs.wrongHostKey, host: "localhost")
        #expect(wrongHost?.hasPrefix("certificate verify failed: hostname mismatch") == true)
        let expired = try failure(certs.expiredChain, certs.expiredKey, host: "localhost")
        #expect(expired?.contains("certificate has expired") == true)
        let wrongIP = try failure(certs.leafChain, certs.leafKey, host: "127.0.0.2")
        #expect(wrongIP?.contains("IP address mismatch") == true)
        #expect(try failure(certs.leafChain, certs.leafKey, host: "127.0.0.1") == nil)
    }

    @Test("verify off: the handshake completes, the served chain is shown and the reason kept")
    func verifyOff() throws {
        let server = try TLSServerContext(certificateChainFile: certs.untrustedChain, privateKeyFile: certs.untrustedKey)
        let pair = TLSTestPair(client: try client(verify: false).makeSession(serverName: "localhost", port: 1),
                               server: server.makeSession())
        pair.handshake()
        #expect(pair.client.isHandshakeComplete)
        #expect(pair.client.peerChainDER.count == 1)
        #expect(pair.client.verifiedChainDER.isEmpty)
        #expect(pair.client.verifyResult?.contains("unable to get local issuer certificate") == true)
    }

    @Test("plain HTTP to a TLS server, and a plain HTTP answer to a TLS client")
    func plainHTTP() throws {
        let server = try server().makeSession()
        var plain: [UInt8] = []
        _ = server.start()
        let request = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        let event = request.withUnsafeBytes { server.receive($0, into: &plain) }
        #expect(event == .failed("peer did not speak TLS (received plain HTTP?)"))

        let client = try client().makeSession(serverName: "localhost", port: 80)
        _ = client.start()
        let answer = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)
        let clientEvent = answer.withUnsafeBytes { client.receive($0, into: &plain) }
        #expect(clientEvent == .failed("peer did not speak TLS (received plain HTTP?) (peer localhost:80)"))
    }

    @Test("send before the handshake fails; events after failure repeat it")
    func misuse() throws {
        let session = try server().makeSession()
        let event = Array("x".utf8).withUnsafeBytes { session.send($0) }
        #expect(event == .failed("cannot send application data before the TLS handshake completes"))
        var plain: [UInt8] = []
        #expect(Array("y".utf8).withUnsafeBytes { session.receive($0, into: &plain) } == event)
    }

    @Test("the second connection resumes the session", arguments: [TLSProtocolVersion.tls12, .tls13])
    func resumption(version: TLSProtocolVersion) throws {
        let serverContext = try server(maximum: version)
        let clientContext = try client()
        let first = TLSTestPair(client: clientContext.makeSession(serverName: "localhost", port: 443),
                                server: serverContext.makeSession())
        first.handshake()
        #expect(first.client.protocolVersion == version.description)
        #expect(!first.client.sessionReused)
        #expect(clientContext.cachedSessionCount == 1)

        let second = TLSTestPair(client: clientContext.makeSession(serverName: "localhost", port: 443),
                                 server: serverContext.makeSession())
        second.handshake()
        #expect(second.client.isHandshakeComplete)
        #expect(second.client.sessionReused)
        #expect(second.server.sessionReused)
        #expect(clientContext.resumedSessionCount == 1)
        // Pins are checked on this; a resumed session must still carry it.
        #expect(second.client.verifiedChainDER == first.client.verifiedChainDER)
        #expect(second.client.verifiedChainDER.count == 3)

        let otherHost = TLSTestPair(client: clientContext.makeSession(serverName: "127.0.0.1", port: 443),
                                    server: serverContext.makeSession())
        otherHost.handshake()
        #expect(!otherHost.client.sessionReused)
    }

    @Test("a TLS 1.3-only server refuses a TLS 1.2-only client with a clear reason")
    func versionMismatch() throws {
        let serverContext = try TLSServerContext(certificateChainFile: certs.leafChain, privateKeyFile: certs.leafKey,
                                                 minimumVersion: .tls13)
        let clientContext = try TLSClientContext(trustSystemStore: false, caFile: certs.rootCA, maximumVersion: .tls12)
        let pair = TLSTestPair(client: clientContext.makeSession(serverName: "localhost", port: 1),
                               server: serverContext.makeSession())
        pair.handshake()
        #expect(pair.serverFailure?.hasPrefix("handshake failure: protocol version") == true)
        #expect(pair.clientFailure?.hasPrefix("handshake failure: protocol version") == true)
    }
}
