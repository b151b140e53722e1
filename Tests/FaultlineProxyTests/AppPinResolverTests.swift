import FaultlineConfig
import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineProxy

/// Reading the app file an upstream's `pins.app` names, when the snapshot is compiled:
/// what is refused (with the key path) and what only warns.
@Suite("App pin files resolved for upstreams")
struct AppPinResolverTests {
    private static let pinA = Data(repeating: 1, count: 32).base64EncodedString()
    private static let pinB = Data(repeating: 2, count: 32).base64EncodedString()

    private static func reference(_ file: String, platform: AppPinPlatformName? = nil, build: AppPinBuildName = .release)
        -> AppPinReference {
        AppPinReference(file: file, written: "app/" + (file as NSString).lastPathComponent, domain: "api.example.com",
                        platform: platform, build: build, path: "upstreams.api.pins")
    }

    private static func android(_ config: String) -> String {
        #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<network-security-config>\n\(config)\n</network-security-config>\n"
    }

    @Test func aPlistHoldingTwoPlatformsNeedsPlatform() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            <key>NSAppTransportSecurity</key>
            <dict><key>NSPinnedDomains</key><dict><key>api.example.com</key><dict>
            <key>NSPinnedCAIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>\(Self.pinA)</string></dict></array>
            </dict></dict></dict>
            <key>TSKConfiguration</key>
            <dict><key>TSKPinnedDomains</key><dict><key>api.example.com</key><dict>
            <key>TSKPublicKeyHashes</key><array><string>\(Self.pinA)</string><string>\(Self.pinB)</string></array>
            </dict></dict></dict>
            </dict>
            </plist>
            """)
        #expect(throws: ConfigError(path: "upstreams.api.pins.app",
                                    message: "app/Info.plist: holds ATS and TrustKit pin configurations; set platform to \"ats\" or \"trustkit\"")) {
            try AppPinResolver.resolve(Self.reference(file), at: Date())
        }
        let (trustKit, warnings) = try AppPinResolver.resolve(Self.reference(file, platform: .trustkit), at: Date())
        #expect(trustKit.configuration.platform.rawValue == "trustkit" && warnings.isEmpty)
        let (ats, _) = try AppPinResolver.resolve(Self.reference(file, platform: .ats), at: Date())
        #expect(ats.configuration.platform.rawValue == "ats")
        #expect(throws: ConfigError(path: "upstreams.api.pins.build",
                                    message: "applies to Android configurations only; app/Info.plist is read with ATS rules")) {
            try AppPinResolver.resolve(Self.reference(file, platform: .ats, build: .debuggable), at: Date())
        }
    }

    @Test func anExpiredEntryWarnsAndAnEntryWithoutPinsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let expired = try directory.write("expired.xml", Self.android("""
            <domain-config><domain>api.example.com</domain>
            <pin-set expiration="2020-01-01"><pin digest="SHA-256">\(Self.pinA)</pin></pin-set></domain-config>
            """))
        let (binding, warnings) = try AppPinResolver.resolve(Self.reference(expired), at: Date())
        #expect(binding.configuration.platform.rawValue == "android")
        // The reader's own warnings come first (one pin, no backup), then the expiry.
        #expect(warnings.map(\.description) == [
            "upstreams.api.pins.app: app/expired.xml: network-security-config/domain-config/pin-set: one pin and no backup pin (line 4)",
            "upstreams.api.pins.app: app/expired.xml: the pin-set expired on 2020-01-01; Android stops enforcing pins after its "
                + "expiration; the proxy forwards to api.example.com without a pin check, as the app connects without one (NOT PINNED)",
        ])
        let unpinned = try directory.write("unpinned.xml", Self.android("""
            <domain-config><domain>api.example.com</domain>
            <trust-anchors><certificates src="system"/></trust-anchors></domain-config>
            """))
        do {
            _ = try AppPinResolver.resolve(Self.reference(unpinned), at: Date())
            Issue.record("an entry without pins loaded")
        } catch {
            #expect(error.path == "upstreams.api.pins.app")
            #expect(error.message.hasPrefix("app/unpinned.xml: network-security-config/domain-config/domain: the domain-config for "
                                            + "api.example.com has no pin-set (line 3): the app pins nothing for api.example.com"),
                    "\(error.message)")
        }
    }

    @Test func readerErrorsKeepTheFileAsWrittenTheKeyPathAndTheLine() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("pins.json", #"{"TSKPinnedDomains": {"api.example.com": {"TSKPublicKeyHashes": ["\#(Self.pinA)"]}}}"#)
        do {
            _ = try AppPinResolver.resolve(Self.reference(file), at: Date())
            Issue.record("a TrustKit domain with one pin loaded")
        } catch {
            #expect(error.path == "upstreams.api.pins.app")
            #expect(error.message.hasPrefix("app/pins.json: TSKPinnedDomains[\"api.example.com\"]"), "\(error.message)")
            #expect(error.message.contains("(line 1)"), "\(error.message)")
        }
        #expect(throws: ConfigError.self) {
            try AppPinResolver.resolve(Self.reference(directory.path("absent.plist")), at: Date())
        }
    }
}
