import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineConfig
import FaultlineTLS

@Suite("Upstream pins")
struct PinPolicyConfigTests {
    /// 2026-01-01T00:00:00Z, the "now" of every warning test.
    private static let now = Date(timeIntervalSince1970: 1_767_225_600)
    private static let a = "sha256/\(PinVectors.a)"
    private static let b = "sha256/\(PinVectors.b)"
    private static let c = "sha256/\(PinVectors.c)"

    private func pins(_ members: String) -> String {
        httpsUpstream(#""pins": {\#(members)}"#)
    }

    private func pin(_ base64: String) throws -> SPKIPinValue {
        try PinParser.parse(base64)
    }

    @Test func fullPolicy() throws {
        let json = pins(#"""
            "sha256": ["\#(PinVectors.a)", "sha256//\#(PinVectors.b)"], "mode": "report",
            "candidate": ["pin-sha256=\"\#(PinVectors.c)\"", "\#(Self.b)"],
            "expires": "2027-06-01", "on_expiry": "enforce"
            """#)
        let (config, warnings) = try loadWithWarnings(json, now: Self.now)
        let policy = try #require(config.upstream(named: "staging")?.pins)
        #expect(policy == PinPolicy(
            live: [try pin(PinVectors.a), try pin(PinVectors.b)], mode: .report,
            candidate: [try pin(PinVectors.c), try pin(PinVectors.b)],
            expires: Date(timeIntervalSince1970: 1_811_808_000), onExpiry: .enforce))
        #expect(warnings.isEmpty)
        #expect(config.upstream(named: "staging")?.tls?.pins == policy)
    }

    @Test func defaults() throws {
        let policy = try #require(try loadConfig(pins(#""sha256": ["\#(Self.a)", "\#(Self.b)"]"#)).upstream(named: "staging")?.pins)
        #expect(policy.mode == .enforce)
        #expect(policy.candidate == [])
        #expect(policy.expires == nil)
        #expect(policy.onExpiry == .unpinned)
        #expect(!policy.isExpired(at: Date()))
        #expect(policy.effectiveMode(at: Date()) == .enforce)
    }

    @Test func offModeNeedsNoPins() throws {
        let (config, warnings) = try loadWithWarnings(pins(#""mode": "off""#), now: Self.now)
        #expect(config.upstream(named: "staging")?.pins == PinPolicy(live: [], mode: .off))
        #expect(warnings.isEmpty)
    }

    @Test func expiryBehaviour() throws {
        let expired = PinPolicy(live: [try pin(PinVectors.a)], expires: Self.now, onExpiry: .unpinned)
        #expect(expired.isExpired(at: Self.now))
        #expect(!expired.isExpired(at: Self.now.addingTimeInterval(-1)))
        #expect(expired.effectiveMode(at: Self.now) == .off)
        let enforced = PinPolicy(live: [try pin(PinVectors.a)], mode: .report, expires: Self.now, onExpiry: .enforce)
        #expect(enforced.effectiveMode(at: Self.now) == .report)
    }

    @Test(arguments: [
        ("2027-06-01", 1_811_808_000.0),
        ("2024-02-29", 1_709_164_800.0),
        ("2027-06-01T12:30:15Z", 1_811_853_015.0),
        ("2027-06-01t12:30:15z", 1_811_853_015.0),
        ("2027-06-01T12:30:15.5+02:00", 1_811_845_815.5),
        ("2027-06-01T00:00:00-05:30", 1_811_827_800.0),
    ])
    func expiresForms(text: String, seconds: Double) throws {
        let json = pins(#""sha256": ["\#(Self.a)", "\#(Self.b)"], "expires": "\#(text)""#)
        let policy = try #require(try loadConfig(json).upstream(named: "staging")?.pins)
        #expect(policy.expires == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["2027-6-1", "2027-02-29", "2027-13-01", "2027-06-01T25:00:00Z", "2027-06-01T12:00:00", "2027-06-01 12:00:00Z", "tomorrow"])
    func invalidExpires(text: String) {
        #expect(configErrors(pins(#""sha256": ["\#(Self.a)", "\#(Self.b)"], "expires": "\#(text)""#)) == [
            #"upstreams.staging.pins.expires: expected an ISO 8601 date ("2027-06-01") or date-time with an offset ("2027-06-01T12:00:00Z"), got "\#(text)""#,
        ])
    }

    @Test(arguments: [
        (#""sha256": []"#, #"upstreams.staging.pins.sha256: expected at least one pin in enforce mode (an empty set would block everything); use "mode": "off" to disable pinning"#),
        ("", #"upstreams.staging.pins.sha256: expected at least one pin in enforce mode (an empty set would block everything); use "mode": "off" to disable pinning"#),
        (#""mode": "report""#, #"upstreams.staging.pins.sha256: expected at least one pin in report mode (an empty set would report every connection); use "mode": "off" to disable pinning"#),
        (#""sha256": "\#(PinVectors.a)""#, #"upstreams.staging.pins.sha256: expected an array of SPKI pins such as "sha256/<base64>", got "\#(PinVectors.a)""#),
        (#""sha256": [\#(1)]"#, #"upstreams.staging.pins.sha256[0]: expected an SPKI pin such as "sha256/<base64>", got 1"#),
        (#""sha256": ["\#(Self.a)", "sha1/\#(PinVectors.sha1Base64)"]"#,
         #"upstreams.staging.pins.sha256[1]: only sha256 pins are supported, got a sha1 pin "sha1/qZk+NkcGgWq6PiVxeFDCbJzQ2J0=""#),
        (#""sha256": ["\#(Self.a)", "\#(PinVectors.sha1Base64)"]"#,
         #"upstreams.staging.pins.sha256[1]: "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=" decodes to 20 bytes; a SHA-256 pin is 32 bytes (20 bytes is the size of a SHA-1 digest)"#),
        (#""sha256": ["\#(Self.a)", "pin-sha256=\"\#(PinVectors.a)\""]"#,
         #"upstreams.staging.pins.sha256[1]: duplicate pin sha256/\#(PinVectors.a) (same as sha256[0])"#),
        (#""sha256": ["\#(Self.a)", "\#(Self.b)"], "candidate": ["\#(Self.c)", "\#(PinVectors.c)"]"#,
         #"upstreams.staging.pins.candidate[1]: duplicate pin sha256/\#(PinVectors.c) (same as candidate[0])"#),
        (#""sha256": ["\#(Self.a)", "\#(Self.b)"], "mode": "strict""#,
         #"upstreams.staging.pins.mode: expected "enforce", "report" or "off", got "strict""#),
        (#""sha256": ["\#(Self.a)", "\#(Self.b)"], "on_expiry": "fail""#,
         #"upstreams.staging.pins.on_expiry: expected "unpinned" or "enforce", got "fail""#),
        (#""sha256": ["\#(Self.a)", "\#(Self.b)"], "expires": 20270601"#,
         "upstreams.staging.pins.expires: expected an ISO 8601 date, got 20270601"),
        (#""sha256": ["\#(Self.a)", "\#(Self.b)"], "backup": []"#,
         "upstreams.staging.pins.backup: unknown key (known: sha256, mode, candidate, expires, on_expiry, app, domain, platform, build)"),
    ])
    func reportsExactly(members: String, expected: String) {
        #expect(configErrors(pins(members)) == [expected])
    }

    @Test func fingerprintInConfigNamesTheField() {
        let errors = configErrors(pins(#""sha256": ["\#(Self.a)", "\#(PinVectors.aHex)"]"#))
        #expect(errors == [
            #"upstreams.staging.pins.sha256[1]: "\#(PinVectors.aHex)" looks like a hex SHA-256 certificate fingerprint, not an SPKI pin. "#
                + "A pin is base64(SHA-256(SubjectPublicKeyInfo)) and survives certificate renewal with the same key; "
                + "get it with: faultline pins compute cert.pem (or: openssl x509 -in cert.pem -noout -pubkey "
                + "| openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64)",
        ])
    }

    @Test func badPinsAreNotAlsoReportedAsAnEmptySet() {
        #expect(configErrors(pins(#""sha256": ["no pe"]"#)) == [
            #"upstreams.staging.pins.sha256[0]: expected the base64 of a 32-byte SHA-256 digest (44 characters ending in "="), got "no pe""#,
        ])
    }

    @Test func singlePinWarns() throws {
        let (_, warnings) = try loadWithWarnings(pins(#""sha256": ["\#(Self.a)"], "candidate": ["\#(Self.c)"]"#), now: Self.now)
        #expect(warnings == [
            "upstreams.staging.pins.sha256: a single pin has no backup: if the key is lost or rotated the app cannot connect",
            "upstreams.staging.pins.candidate: a single candidate pin has no backup: once this set ships, "
                + "losing or rotating that key leaves the app unable to connect",
        ])
    }

    @Test(arguments: [
        ("2026-01-31", "unpinned",
         "the pin set expires on 2026-01-31, in 30 days; after that pins stop being checked. Ship the next pin set before then"),
        ("2026-01-02", "enforce",
         "the pin set expires on 2026-01-02, in 1 day; after that the expired pins are still checked. Ship the next pin set before then"),
        ("2026-01-01T12:00:00Z", "unpinned",
         "the pin set expires on 2026-01-01T12:00:00Z, in less than a day; after that pins stop being checked. Ship the next pin set before then"),
        ("2026-01-01", "unpinned",
         #"the pin set expired on 2026-01-01; pins are no longer checked (on_expiry "unpinned"), as an app shipping this set behaves"#),
        ("2025-06-01", "enforce", #"the pin set expired on 2025-06-01; pins are still checked (on_expiry "enforce")"#),
    ])
    func expiryWarnings(expires: String, onExpiry: String, message: String) throws {
        let json = pins(#""sha256": ["\#(Self.a)", "\#(Self.b)"], "expires": "\#(expires)", "on_expiry": "\#(onExpiry)""#)
        let (_, warnings) = try loadWithWarnings(json, now: Self.now)
        #expect(warnings == ["upstreams.staging.pins.expires: \(message)"])
    }

    @Test func noWarningForAFarExpiryOrOffMode() throws {
        let far = pins(#""sha256": ["\#(Self.a)", "\#(Self.b)"], "expires": "2026-01-31T00:00:01Z""#)
        #expect(try loadWithWarnings(far, now: Self.now).warnings.isEmpty)
        let off = pins(#""sha256": ["\#(Self.a)"], "mode": "off", "expires": "2020-01-01""#)
        #expect(try loadWithWarnings(off, now: Self.now).warnings.isEmpty)
    }

    @Test func loadWithWarningsFromFile() throws {
        let directory = try TemporaryDirectory(placeholders: [])
        defer { directory.remove() }
        let path = try directory.writeConfig(pins(#""sha256": ["\#(Self.a)"]"#))
        let (config, warnings) = try ConfigLoader.loadWithWarnings(path: path, now: Self.now)
        #expect(config.upstream(named: "staging")?.pins?.live == [try pin(PinVectors.a)])
        #expect(warnings == [ConfigWarning(
            path: "upstreams.staging.pins.sha256",
            message: "a single pin has no backup: if the key is lost or rotated the app cannot connect")])
        #expect(warnings.first?.description.hasPrefix("upstreams.staging.pins.sha256: a single pin") == true)
    }
}
