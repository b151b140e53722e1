import FaultlineLog
import FaultlineTLS
import Foundation
import Testing
@testable import FaultlineProxy

/// `PinReportParser`, `PinReportBoard` and the report's log record without a process: the
/// format detection, each refusal naming its field, labels past the bound, redaction.
@Suite("Pin failure reports")
struct PinReportParserTests {
    private struct PKI {
        let root: CertificateAuthority
        let leaf: CertificateLeaf

        init() throws {
            let now = Date()
            root = try CertificateMinter.rootCA(commonName: "Report Root", key: try CertificateKey.generate(), validity: .days(3, from: now))
            let intermediate = try CertificateMinter.intermediateCA(commonName: "Report Intermediate", key: try CertificateKey.generate(),
                                                                    issuer: root, validity: .days(3, from: now))
            leaf = try CertificateMinter.leaf(names: ["api.example.com"], key: try CertificateKey.generate(), issuer: intermediate,
                                              validity: .days(3, from: now))
        }

        var validated: [String] { (leaf.chain + [root.certificate]).map(\.pem) }
    }

    private func trustKit(_ pki: PKI) -> [String: Any] {
        [
            "app-bundle-id": "com.example.app", "app-version": "", "app-platform": "IOS", "app-vendor-id": "V-1",
            "trustkit-version": "3.0.4", "date-time": "2026-12-01T10:00:00Z", "hostname": "api.example.com", "port": 0,
            "noted-hostname": "example.com", "include-subdomains": true, "enforce-pinning": false,
            "validated-certificate-chain": pki.validated, "known-pins": ["pin-sha256=\"\(pki.root.certificate.spkiPin)\""],
            "validation-result": 1, "known-pins-expiration-date": NSNull(),
        ]
    }

    private func body(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object))
    }

    private func refusal(_ object: [String: Any]) throws -> PinReportError? {
        do {
            _ = try PinReportParser.parse(try body(object))
            return nil
        } catch let error as PinReportError {
            return error
        }
    }

    @Test func aTrustKitReportIsReadWithItsAppAndItsChainAsPins() throws {
        let pki = try PKI()
        let report = try PinReportParser.parse(try body(trustKit(pki)))
        guard case .trustKit(let app) = report.source else {
            Issue.record("read as \(report.source.format)")
            return
        }
        #expect(app.bundleID == "com.example.app" && app.version == "" && !app.enforcePinning && app.validationResult == .failedNoMatchingPin)
        #expect(app.knownPinsExpirationDate == nil && app.platformVersion == nil)
        #expect(report.port == 0 && report.includeSubdomains && report.notedHostname == "example.com")
        #expect(report.validatedChain.map(\.position) == ["leaf", "intermediate", "root"])
        #expect(report.matches == ["sha256/\(pki.root.certificate.spkiPin) matched the root \(pki.root.certificate.subject)"])
        #expect(report.extra == nil)
    }

    @Test func anythingElseIsRFC7469AndFaultlinesOwnReportIsAccepted() throws {
        let pki = try PKI()
        let own = PinEnforcement.FailureReport(
            dateTime: "2026-12-01T10:00:00Z", hostname: "api.example.com", port: 443, includeSubdomains: false,
            notedHostname: "api.example.com", servedCertificateChain: pki.leaf.chain.map(\.pem), validatedCertificateChain: pki.validated,
            knownPins: ["pin-sha256=\"\(pki.leaf.certificate.spkiPin)\""], effectiveExpirationDate: nil, upstream: "origin",
            mode: "report", observed: ["leaf CN=api.example.com"])
        let report = try PinReportParser.parse(Array(PinEnforcement.json(own, fallback: "").utf8))
        guard case .hpkp(let served, let expiration) = report.source else {
            Issue.record("read as \(report.source.format)")
            return
        }
        #expect(served.count == 2 && expiration == nil)
        #expect(report.extra == "{\"faultline-mode\":\"report\",\"faultline-observed\":[\"leaf CN=api.example.com\"],\"faultline-upstream\":\"origin\"}")
    }

    @Test func eachRefusalNamesItsField() throws {
        let good = trustKit(try PKI())
        func with(_ key: String, _ value: Any?) -> [String: Any] {
            var copy = good
            copy[key] = value
            return copy
        }
        let cases: [([String: Any], String?, String)] = [
            (with("app-bundle-id", nil), "app-bundle-id", "app-bundle-id: missing"),
            (with("app-bundle-id", ""), "app-bundle-id", "app-bundle-id: empty"),
            (with("hostname", NSNull()), "hostname", "hostname: expected a string, got null"),
            (with("hostname", String(repeating: "a", count: 1025)), "hostname", "hostname: longer than 1024 bytes"),
            (with("port", 443.5), "port", "port: expected an integer 0...65535, got a number"),
            (with("port", true), "port", "port: expected an integer 0...65535, got a boolean"),
            (with("include-subdomains", "true"), "include-subdomains", "include-subdomains: expected true or false, got a string"),
            (with("validation-result", -1), "validation-result", "validation-result: expected an integer 0...5, got a number"),
            (with("known-pins-expiration-date", "30/06/2027"), "known-pins-expiration-date", "known-pins-expiration-date: expected a date such as 2027-01-31"),
            (with("known-pins", "pin-sha256=\"x\""), "known-pins", "known-pins: expected an array of strings, got a string"),
            (with("known-pins", [1]), "known-pins[0]", "known-pins[0]: expected a string, got a number"),
            (with("validated-certificate-chain", []), "validated-certificate-chain", "validated-certificate-chain: expected 1...16 items, got 0"),
            (with("validated-certificate-chain", ["MIIB"]), "validated-certificate-chain[0]",
             "validated-certificate-chain[0]: expected a PEM certificate (-----BEGIN CERTIFICATE-----)"),
            (with("validated-certificate-chain", [good["validated-certificate-chain"].flatMap { ($0 as? [String])?.joined() } ?? ""]),
             "validated-certificate-chain[0]", "validated-certificate-chain[0]: holds 3 certificates; give one per item"),
        ]
        for (object, field, message) in cases {
            let error = try #require(try refusal(object), "\(message) was accepted")
            #expect(error.status == 400 && error.field == field && error.message == message, "\(error)")
        }
        do {
            _ = try PinReportParser.parse([UInt8](repeating: 32, count: 70_000))
            Issue.record("a body over the limit was accepted")
        } catch {
            #expect(error.status == 413 && error.field == nil && error.message == "pin failure report of 70000 bytes is larger than 65536 bytes")
        }
    }

    @Test func labelsAreBoundedAndNamesThatAreNoHostNamesAreOther() throws {
        let pki = try PKI()
        let board = PinReportBoard()
        var object = trustKit(pki)
        for index in 0..<PinReportBoard.maxUnknownHostnames + 2 {
            object["hostname"] = "h\(index).example.net"
            let summary = board.record(try PinReportParser.parse(try body(object)), known: [], redactor: Redactor())
            #expect(summary.label == (index < PinReportBoard.maxUnknownHostnames ? "h\(index).example.net" : "other"))
        }
        object["hostname"] = "H0.Example.NET."
        #expect(board.record(try PinReportParser.parse(try body(object)), known: [], redactor: Redactor()).label == "h0.example.net")
        object["hostname"] = "api.internal"
        #expect(board.record(try PinReportParser.parse(try body(object)), known: ["api.internal"], redactor: Redactor()).label == "api.internal")
        object["hostname"] = "api.example.com?token=abc"
        let redacted = board.record(try PinReportParser.parse(try body(object)), known: [], redactor: Redactor())
        #expect(redacted.label == "other" && redacted.hostname == "api.example.com?token=[REDACTED]")
        let counts = board.counts()
        #expect(counts.first { $0.hostname == "other" }?.reports == 3)
        #expect(counts.reduce(0) { $0 + $1.reports } == PinReportBoard.maxUnknownHostnames + 5)
        #expect(Set(counts.map(\.hostname)).count == PinReportBoard.maxUnknownHostnames + 2)
    }

    @Test func theRingKeepsTheLastHundredNewestFirst() throws {
        let board = PinReportBoard()
        let report = try PinReportParser.parse(try body(trustKit(try PKI())))
        for _ in 0..<(PinReportBoard.capacity + 5) { _ = board.record(report, known: [], redactor: Redactor()) }
        let overview = board.overview()
        #expect(overview.total == PinReportBoard.capacity + 5 && overview.kept == PinReportBoard.capacity)
        #expect(overview.reports.first?.id == PinReportBoard.capacity + 5 && overview.reports.last?.id == 6)
        #expect(board.overview(last: 20).reports.count == 20)
    }

    @Test func theRecordCarriesPinsAndRedactsTheRest() throws {
        var object = trustKit(try PKI())
        // Canaries with a `-`, which no base64 pin in the line can contain by chance.
        object["hostname"] = "api.example.com?token=tok-abc"
        object["x-api-key"] = "k-123"
        let report = try PinReportParser.parse(try body(object))
        let board = PinReportBoard()
        let summary = board.record(report, known: [], redactor: Redactor())
        let record = report.record(summary: summary, policy: LogPolicy())
        let line = String(decoding: JSONLineEncoder.encode(record), as: UTF8.self)
        #expect(!line.contains("tok-abc") && !line.contains("k-123") && !line.contains("BEGIN"), "\(line)")
        #expect(record.host == nil && record.serverPort == 0 && record.kind == .pin && record.pinResult == nil)
        #expect(line.contains("\"faultline.pin.report.app_vendor_id\":\"V-1\""), "\(line)")
        #expect(line.contains("report only: the app connected"), "\(line)")
        #expect(!record.redacted.isEmpty, "\(record.redacted)")
    }
}
