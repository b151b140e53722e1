import Foundation
import Testing
import FaultlineTestSupport

/// Pin checks in the traffic log: a record of kind `pin` per full handshake saying which
/// certificate matched which pin, and the verdict and the connect and TLS times on every
/// exchange record, including those served on a pooled connection.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct LoggingPinTests {
    @Test func matchIsReportedWithTheCertificateThatMatchedAndCarriedByEachExchange() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        var upstream = TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"))
        upstream["pins"] = ["sha256": [chain.pin("int"), chain.pin("backup")], "mode": "enforce"]
        var config = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener], upstreams: ["o": upstream], workers: 1)
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        let proxy = try await TLSProxy.start(config)

        for id in ["pin-first", "pin-pooled"] {
            let reply = try await TLSCurl.get(proxy.url("/\(id)"), ["-H", "X-Request-ID: \(id)"])
            #expect(reply.status == 200, "\(reply)")
        }
        let path = proxy.directory.path("traffic.log")
        let records = try await LogFile.waitForExchanges(["pin-first", "pin-pooled"], in: path)

        let pins = records.filter { $0.kind == "pin" }
        let verdicts = pins.filter { $0["faultline.pin.result"] as? String != "warning" }
        #expect(verdicts.count == 1, "one full handshake, one verdict: \(pins)")
        // Pinning only an intermediate is worth a warning, raised at the first handshake.
        let warnings = pins.filter { $0["faultline.pin.result"] as? String == "warning" }
        #expect(warnings.contains { ($0["faultline.message"] as? String ?? "").contains("intermediate") }, "\(pins)")
        let pin = try #require(verdicts.first)
        #expect(pin["faultline.pin.result"] as? String == "match", "\(pin)")
        #expect(pin["faultline.upstream"] as? String == "o", "\(pin)")
        let matched = (pin["faultline.pin.matched"] as? [String] ?? []).joined(separator: "\n")
        #expect(matched.contains(chain.pin("int")) && matched.contains("matched the intermediate"), "\(pin)")
        // The verified chain: one array, one object per certificate, leaf first.
        let observed = pin["faultline.pin.chain"] as? [[String: String]] ?? []
        #expect(observed.map { $0["position"] } == ["leaf", "intermediate", "root"], "the observed chain is listed: \(pin)")
        #expect(observed.contains { $0["pin-sha256"] == chain.pin("int") }, "\(pin)")

        let first = try #require(records.first { $0.requestID == "pin-first" })
        #expect(first["faultline.pin.result"] as? String == "match", "\(first)")
        let connect = first["faultline.duration.connect"] as? Double ?? -1
        let tls = first["faultline.duration.tls"] as? Double ?? -1
        let total = first["faultline.duration.total"] as? Double ?? -1
        #expect(connect >= 0 && tls > 0 && total >= connect + tls, "connect \(connect) tls \(tls) total \(total)")
        let pooled = try #require(records.first { $0.requestID == "pin-pooled" })
        #expect(pooled["faultline.pin.result"] as? String == "match", "a pooled connection keeps its verdict: \(pooled)")
        #expect(pooled["faultline.duration.tls"] == nil, "no handshake on a pooled connection: \(pooled)")
        #expect(origin.requests.count == 2)
    }
}
