import Foundation
import Testing
@testable import FaultlineProxy

/// The 502 body of a refused chain and the pin failure report: typed, one line, and the
/// bytes JSONSerialization writes for the same tree.
@Suite("Pin report bodies")
struct PinReportBodyTests {
    private func expectOneLineSameAsSerialization(_ json: String) throws {
        #expect(!json.contains("\n"))
        let tree = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let reference = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(json == String(decoding: reference, as: UTF8.self))
    }

    @Test func refusalBody() throws {
        let body = PinEnforcement.RefusalBody(
            error: "pin mismatch", message: "no pin matched", upstream: "origin", host: "origin.example", port: 8443, mode: "enforce",
            expectedPins: ["sha256/AAAA+/=="],
            observedChain: [PinEnforcement.ObservedCertificate(position: "leaf", subject: "CN=origin", pin: "sha256/BBBB/+==")])
        let json = PinEnforcement.json(body, fallback: "")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["error", "message", "upstream", "host", "port", "mode", "expected_pins", "observed_chain"])
        #expect(object["port"] as? Int == 8443)
        #expect((object["observed_chain"] as? [[String: String]])?.first == ["position": "leaf", "subject": "CN=origin", "pin": "sha256/BBBB/+=="])
        try expectOneLineSameAsSerialization(json)
    }

    @Test func failureReportHasTheRFC7469Fields() throws {
        func report(expires: String?) -> PinEnforcement.FailureReport {
            PinEnforcement.FailureReport(
                dateTime: "2026-12-01T10:00:00Z", hostname: "origin.example", port: 443, includeSubdomains: false,
                notedHostname: "origin.example", servedCertificateChain: ["-----BEGIN CERTIFICATE-----\nMII/+\n-----END CERTIFICATE-----\n"],
                validatedCertificateChain: [], knownPins: ["pin-sha256=\"AAAA\""], effectiveExpirationDate: expires,
                upstream: "origin", mode: "report", observed: ["leaf CN=origin sha256/BBBB"])
        }
        let rfcKeys: Set = ["date-time", "hostname", "port", "include-subdomains", "noted-hostname", "served-certificate-chain",
                            "validated-certificate-chain", "known-pins", "faultline-upstream", "faultline-mode", "faultline-observed"]
        let without = PinEnforcement.json(report(expires: nil), fallback: "")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(without.utf8)) as? [String: Any])
        #expect(Set(object.keys) == rfcKeys)
        #expect(object["include-subdomains"] as? Bool == false)
        try expectOneLineSameAsSerialization(without)
        let with = PinEnforcement.json(report(expires: "2027-01-01T00:00:00Z"), fallback: "")
        let dated = try #require(try JSONSerialization.jsonObject(with: Data(with.utf8)) as? [String: Any])
        #expect(Set(dated.keys) == rfcKeys.union(["effective-expiration-date"]))
        try expectOneLineSameAsSerialization(with)
    }
}
