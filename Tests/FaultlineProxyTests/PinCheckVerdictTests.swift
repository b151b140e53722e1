import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineIO
import FaultlineLog

/// A handshake's pin check names its verdict with a type, and its records carry it.
@Suite("Pin check verdict")
struct PinCheckVerdictTests {
    private func check(livePassed: Bool?, refused: Bool, events: [ProxyEvent] = []) -> PinEnforcement.Check {
        let observation = PinStatusBoard.Observation(
            upstream: "origin", livePassed: livePassed, candidatePassed: nil, expired: false,
            chain: [.init(position: "leaf", subject: "CN=origin", pin: "AAAA")], matches: [], candidateMatches: [], date: Date())
        return PinEnforcement.Check(observation: observation, events: events, refusal: refused ? PinRefusal(json: "{}") : nil)
    }

    @Test func verdictFollowsTheCheck() {
        #expect(check(livePassed: true, refused: false).verdict == .match)
        #expect(check(livePassed: false, refused: false).verdict == .report)
        #expect(check(livePassed: false, refused: true).verdict == .mismatch)
        #expect(check(livePassed: nil, refused: false).verdict == .off)
        #expect(check(livePassed: false, refused: true).verdict.rawValue == "mismatch")
    }

    @Test func recordsCarryTheVerdictThenTheWarnings() throws {
        let address = try #require(SocketAddress(ip: "127.0.0.1", port: 8443))
        let events: [ProxyEvent] = [.pinWarning(upstream: "origin", message: "pin set expired")]
        let records = check(livePassed: false, refused: true, events: events).records(address: address, policy: LogPolicy())
        #expect(records.map(\.pinResult) == [.mismatch, .warning])
        #expect(records.first?.serverPort == 8443)
        let line = String(decoding: JSONLineEncoder.encode(records[0]), as: UTF8.self)
        #expect(line.contains("\"faultline.pin.result\":\"mismatch\""), "\(line)")
    }

    @Test func pinsFromAnAppFileGiveTheRecordTheVerdictLineAndTheRule() throws {
        let address = try #require(SocketAddress(ip: "127.0.0.1", port: 443))
        let base = check(livePassed: false, refused: true)
        let line = "FAIL: pins only leaf keys; the chain's leaf key is not among them (ATS NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"] in Info.plist)"
        let app = PinEnforcement.Check(observation: base.observation, events: [], refusal: base.refusal, verdictLine: line,
                                       appAttributes: [(key: "faultline.pin.app", value: "Info.plist"),
                                                       (key: "faultline.pin.app_platform", value: "ats")])
        let records = app.records(address: address, policy: LogPolicy())
        let text = String(decoding: JSONLineEncoder.encode(records[0]), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["faultline.message"] as? String == line, "\(text)")
        #expect(object["faultline.pin.app"] as? String == "Info.plist" && object["faultline.pin.app_platform"] as? String == "ats",
                "\(text)")
        #expect(object["faultline.pin.result"] as? String == "mismatch", "\(text)")
    }
}
