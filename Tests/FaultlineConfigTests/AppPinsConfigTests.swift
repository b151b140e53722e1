import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineConfig
import FaultlineTLS

/// Upstream pins that name an app configuration (`pins.app`): the reference is read and
/// checked here; the file itself is read when the proxy compiles the snapshot.
@Suite("Upstream pins from an app file")
struct AppPinsConfigTests {
    private func pins(_ members: String, serverName: String? = nil) -> String {
        let name = serverName.map { #""server_name": "\#($0)", "# } ?? ""
        return httpsUpstream(#"\#(name)"pins": {\#(members)}"#)
    }

    @Test func referenceWithDefaults() throws {
        let (config, warnings) = try loadWithWarnings(pins(#""app": "apps/ios/Info.plist""#))
        let tls = try #require(config.upstream(named: "staging")?.tls)
        #expect(tls.pins == nil)
        #expect(tls.appPins == AppPinsConfig(
            mode: .enforce,
            live: AppPinReference(file: "apps/ios/Info.plist", domain: "staging.example.com", path: "upstreams.staging.pins")))
        #expect(warnings.isEmpty)
    }

    @Test func everyMemberAndACandidateApp() throws {
        let json = pins(#"""
            "app": "android.xml", "domain": "API.Example.com.", "platform": "android", "build": "debuggable",
            "mode": "report", "candidate": {"app": "android-next.xml"}
            """#, serverName: "origin.internal")
        let appPins = try #require(try loadWithWarnings(json).config.upstream(named: "staging")?.tls?.appPins)
        #expect(appPins.mode == .report)
        #expect(appPins.live == AppPinReference(file: "android.xml", domain: "api.example.com", platform: .android,
                                                build: .debuggable, path: "upstreams.staging.pins"))
        // The candidate's domain defaults to the live reference's, not the server name.
        #expect(appPins.candidate == AppPinReference(file: "android-next.xml", domain: "api.example.com",
                                                     path: "upstreams.staging.pins.candidate"))
    }

    @Test func refusals() {
        let cases: [(String, String)] = [
            (#""app": "a.plist", "sha256": ["\#(PinVectors.a)"]"#,
             "upstreams.staging.pins.sha256: not with app: the app file's own pins and expirations apply"),
            (#""app": "a.plist", "expires": "2027-01-01""#, "upstreams.staging.pins.expires: not with app"),
            (#""app": "a.plist", "candidate": ["\#(PinVectors.a)"]"#,
             "upstreams.staging.pins.candidate: with app, candidate names another app file to check in shadow"),
            (#""app": "a.plist", "candidate": {"domain": "x.example"}"#,
             "upstreams.staging.pins.candidate.app: expected a file path, got nothing"),
            (#""app": "a.plist", "candidate": {"app": "b.plist", "sha256": []}"#,
             "upstreams.staging.pins.candidate.sha256: unknown key"),
            (#""app": "a.plist", "platform": "ios""#,
             #"upstreams.staging.pins.platform: expected "ats", "android", "trustkit" or "okhttp", got "ios""#),
            (#""app": "a.plist", "build": "debug""#, #"upstreams.staging.pins.build: expected "release" or "debuggable", got "debug""#),
            (#""app": "a.plist", "domain": "api.example.com:443""#, "upstreams.staging.pins.domain: expected a host name"),
            (#""app": """#, #"upstreams.staging.pins.app: expected a file path, got """#),
            (#""sha256": ["\#(PinVectors.a)", "\#(PinVectors.b)"], "domain": "api.example.com""#,
             #"upstreams.staging.pins.domain: applies to pins that name an app file ("app")"#),
        ]
        for (members, expected) in cases {
            let errors = configErrorsSkippingFiles(pins(members))
            #expect(errors.contains { $0.hasPrefix(expected) }, "\(members): \(errors)")
        }
    }

    @Test func theFileMustBeReadableAtLoad() throws {
        let directory = try TemporaryDirectory()
        let errors = configErrors(pins(#""app": "\#(directory.path("missing.plist"))""#))
        #expect(errors.contains { $0.hasPrefix("upstreams.staging.pins.app: cannot read") }, "\(errors)")
        let present = try directory.write("Info.plist", "<plist/>")
        #expect(configErrors(pins(#""app": "\#(present)""#)).isEmpty)
    }
}
