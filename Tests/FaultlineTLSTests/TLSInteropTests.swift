import Foundation
@testable import FaultlineTLS
import Testing
import FaultlineTestSupport

@Suite("TLS against real peers", .timeLimit(.minutes(1)))
struct TLSInteropTests {
    let certs: TLSTestCertificates
    init() throws { certs = try TLSTestCertificates.load() }

    func serverContext() throws -> TLSServerContext {
        try TLSServerContext(certificateChainFile: certs.leafChain, privateKeyFile: certs.leafKey)
    }

    @Test("TLSProbe fetches the served and verified chain from openssl s_server")
    func probeOpenSSLServer() throws {
        let server = try TLSTestOpenSSLServer(["-cert", certs.leafChain, "-key", certs.leafKey, "-alpn", "http/1.1", "-www"])
        defer { server.stop() }
        let trusted = try TLSProbe.fetchChain(host: "localhost", port: server.port, caFile: certs.rootCA, timeoutMs: 5000)
        #expect(trusted.servedChainDER.count == 1)  // -cert takes only the leaf
        #expect(trusted.verifyError?.contains("unable to get local issuer certificate") == true)

        let chained = try TLSTestOpenSSLServer(["-cert", certs.leafChain, "-key", certs.leafKey, "-cert_chain", certs.leafChain,
                                                "-alpn", "http/1.1", "-www"])
        defer { chained.stop() }
        let result = try TLSProbe.fetchChain(host: "127.0.0.1", port: chained.port, caFile: certs.rootCA, timeoutMs: 5000)
        #expect(result.verifyError == nil)
        #expect(result.servedChainDER.count >= 2)
        #expect(result.verifiedChainDER.count == 3)
        #expect(result.protocolVersion == "TLSv1.3")
        #expect(result.alpn == "http/1.1")
        #expect(result.peerAddress == "127.0.0.1:\(chained.port)")

        let untrustedBySystem = try TLSProbe.fetchChain(host: "localhost", port: chained.port, caFile: nil, timeoutMs: 5000)
        #expect(untrustedBySystem.verifiedChainDER.isEmpty)
        #expect(untrustedBySystem.servedChainDER.count >= 2)
        #expect(untrustedBySystem.verifyError?.hasPrefix("certificate verify failed:") == true)
    }

    @Test("a client session does an HTTP exchange with openssl s_server -www over a real socket")
    func clientExchange() throws {
        let server = try TLSTestOpenSSLServer(["-cert", certs.leafChain, "-key", certs.leafKey, "-cert_chain", certs.leafChain, "-www"])
        defer { server.stop() }
        let context = try TLSClientContext(trustSystemStore: false, caFile: certs.rootCA, alpnProtocols: ["http/1.1"])
        for round in 0..<2 {
            let (fd, address) = try TLSSocketConnector.connect(host: "localhost", port: server.port, timeoutMs: 5000)
            let session = context.makeSession(serverName: "localhost", port: server.port)
            session.peerDescription = address
            let connection = TLSBlockingConnection(fd: fd, session: session, timeoutMs: 5000)
            try connection.handshake()
            try connection.write(Array("GET / HTTP/1.0\r\n\r\n".utf8))
            while try connection.read() {}
            connection.close()
            #expect(String(decoding: connection.plaintext, as: UTF8.self).hasPrefix("HTTP/1.0 200 ok"))
            #expect(session.sessionReused == (round == 1))
        }
        #expect(context.resumedSessionCount == 1)
    }

    @Test("connection errors name the peer")
    func probeErrors() throws {
        let port = UInt16(try FreePort.closed())
        #expect(throws: TLSProbeError.self) {
            _ = try TLSProbe.fetchChain(host: "127.0.0.1", port: port, caFile: nil, timeoutMs: 2000)
        }
        do {
            _ = try TLSProbe.fetchChain(host: "127.0.0.1", port: port, caFile: nil, timeoutMs: 2000)
        } catch {
            #expect(error.description == "cannot connect to 127.0.0.1:\(port): 127.0.0.1:\(port): Connection refused")
        }
    }

    @Test("curl --cacert talks HTTPS to the server context")
    func curlClient() throws {
        let server = try TLSTestServer(context: try serverContext())
        let result = try Command.run(["curl", "-sS", "--max-time", "10", "--cacert", certs.rootCA,
                                             "https://localhost:\(server.port)/"])
        let outcome = server.finish()
        #expect(result.output == "hello")
        #expect(outcome.failure == nil)
        #expect(outcome.alpn == "http/1.1")
    }

    @Test("openssl s_client negotiates TLS 1.3 and ALPN http/1.1")
    func sClient() throws {
        let server = try TLSTestServer(context: try serverContext())
        let result = try Command.launch(["openssl", "s_client", "-connect", "127.0.0.1:\(server.port)",
                                                "-servername", "localhost", "-alpn", "h2,http/1.1", "-CAfile", certs.rootCA,
                                                "-verify_return_error", "-ign_eof"],
                                               input: "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", timeout: .seconds(15))
        let outcome = server.finish()
        #expect(result.output.contains("ALPN protocol: http/1.1"))
        #expect(result.output.contains("TLSv1.3"))
        #expect(result.output.contains("Verify return code: 0 (ok)"))
        #expect(result.output.contains("hello"))
        #expect(outcome.failure == nil)
    }

    @Test("TLS 1.1 is refused with a clear reason")
    func tls11Refused() throws {
        let server = try TLSTestServer(context: try serverContext())
        let result = try Command.launch(["openssl", "s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_1",
                                                "-cipher", "DEFAULT@SECLEVEL=0"], input: "", timeout: .seconds(15))
        let outcome = server.finish()
        #expect(result.status != 0)
        #expect(outcome.failure?.hasPrefix("handshake failure: protocol version") == true)
    }

    @Test("curl speaking plain HTTP to the TLS port gets a clear server-side error")
    func plainHTTPClient() throws {
        let server = try TLSTestServer(context: try serverContext())
        let result = try Command.launch(["curl", "-sS", "--max-time", "10", "http://127.0.0.1:\(server.port)/"])
        let outcome = server.finish()
        #expect(result.status != 0)
        #expect(outcome.failure == "peer did not speak TLS (received plain HTTP?)")
    }
}
