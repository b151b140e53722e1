import FaultlineAppPins
import FaultlineTLS
import FaultlineTestSupport
import Foundation
import Testing

/// ATS Info.plist reading: XML and binary, the model, and errors naming file, key and line.
@Suite(.timeLimit(.minutes(1)))
struct ATSReaderTests {
    @Test func xmlPlistGivesDomainsPinsScopesAndLines() throws {
        let fixture = try AppPinFixture()
        let text = PlistText.ats(domain: "API.example.com", includesSubdomains: true, leaf: [fixture.leafPin], ca: [fixture.rootPin])
        let configuration = try ATSPlistReader.read(data: Data(text.utf8), file: "Info.plist")
        #expect(configuration.platform == .ats)
        #expect(configuration.file == "Info.plist")
        #expect(configuration.warnings.isEmpty)
        let domain = try #require(configuration.domains.first)
        #expect(configuration.domains.count == 1)
        #expect(domain.pattern == .domainAndChildren("api.example.com"))
        #expect(domain.keyPath == "NSAppTransportSecurity.NSPinnedDomains[\"API.example.com\"]")
        #expect(domain.line == 10)
        #expect(domain.pins == [AppPin(value: fixture.leaf.certificate.pin, scope: .leaf, line: 17),
                                AppPin(value: fixture.root.certificate.pin, scope: .ca, line: 24)])
        #expect(domain.declaredScopes == [.leaf, .ca])
        #expect(domain.enforce && domain.expiration == nil)
    }

    @Test func binaryPlistGivesTheSameModelWithoutLines() throws {
        let fixture = try AppPinFixture()
        let directory = try TemporaryDirectory(prefix: "faultline-apppins")
        let path = try directory.write("Info.plist", try PlistText.binary(
            PlistText.atsValue(domain: "api.example.com", leaf: [fixture.leafPin, fixture.backupPin], ca: nil)))
        let configuration = try ATSPlistReader.read(path: path)
        #expect(configuration.file == path)
        let domain = try #require(configuration.domains.first)
        #expect(domain.pattern == .exact("api.example.com"))
        #expect(domain.pins.map(\.value.base64) == [fixture.leafPin, fixture.backupPin])
        #expect(domain.pins.allSatisfy { $0.scope == .leaf && $0.line == nil })
        #expect(domain.declaredScopes == [.leaf])
        #expect(try AppPinReader.read(path: path).map(\.platform) == [.ats])
    }

    @Test func badDigestInXMLNamesKeyPathAndLine() throws {
        let fixture = try AppPinFixture()
        let short = Data(repeating: 7, count: 20).base64EncodedString()
        let text = PlistText.ats(domain: "api.example.com", leaf: [fixture.leafPin], ca: [short])
        let message = try ATSReaderTests.error { try ATSPlistReader.read(data: Data(text.utf8), file: "Info.plist") }
        #expect(message == "Info.plist: NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"].NSPinnedCAIdentities[0].SPKI-SHA256-BASE64: not base64 of 32 bytes (line 22)")
    }

    @Test func badDigestInBinaryPlistSaysThereIsNoLine() throws {
        let value = PlistText.atsValue(domain: "api.example.com", leaf: ["not base64!"], ca: nil)
        let message = try ATSReaderTests.error { try ATSPlistReader.read(data: try PlistText.binary(value), file: "Info.plist") }
        #expect(message == "Info.plist: NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"].NSPinnedLeafIdentities[0].SPKI-SHA256-BASE64: not base64 of 32 bytes (binary plist, no line)")
    }

    @Test func structuralErrorsNameTheirKeys() throws {
        let noPins = PlistText.ats(domain: "api.example.com", leaf: nil, ca: nil)
        #expect(try ATSReaderTests.error { try ATSPlistReader.read(data: Data(noPins.utf8), file: "Info.plist") }
            == "Info.plist: NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"]: neither NSPinnedLeafIdentities nor NSPinnedCAIdentities: ATS requires at least one (line 10)")
        let wildcard = PlistText.ats(domain: "*.example.com", leaf: [Data(count: 32).base64EncodedString()], ca: nil)
        #expect(try ATSReaderTests.error { try ATSPlistReader.read(data: Data(wildcard.utf8), file: "Info.plist") }
            == "Info.plist: NSAppTransportSecurity.NSPinnedDomains[\"*.example.com\"]: not a domain name (ATS takes plain names; use NSIncludesSubdomains for subdomains) (line 10)")
        let noATS = PlistText.header + "\n<key>CFBundleName</key>\n<string>App</string>\n" + PlistText.footer
        #expect(try ATSReaderTests.error { try ATSPlistReader.read(data: Data(noATS.utf8), file: "Info.plist") }
            == "Info.plist: no NSAppTransportSecurity dictionary: this Info.plist pins nothing with ATS (line 4)")
        let wrongType = PlistText.header + "\n<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSPinnedDomains</key>\n<array/>\n</dict>\n"
            + PlistText.footer
        #expect(try ATSReaderTests.error { try ATSPlistReader.read(data: Data(wrongType.utf8), file: "Info.plist") }
            == "Info.plist: NSAppTransportSecurity.NSPinnedDomains: expected a dictionary, found an array (line 8)")
    }

    @Test func malformedXMLGivesTheParserLine() throws {
        let broken = PlistText.header + "\n<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSPinnedDomains</dict>\n" + PlistText.footer
        let message = try ATSReaderTests.error { try ATSPlistReader.read(data: Data(broken.utf8), file: "Info.plist") }
        #expect(message == "Info.plist: not an XML property list: not well-formed (line 7)")
    }

    @Test func emptyIdentityListIsWarnedAbout() throws {
        let text = PlistText.ats(domain: "api.example.com", leaf: [], ca: nil)
        let configuration = try ATSPlistReader.read(data: Data(text.utf8), file: "Info.plist")
        #expect(configuration.warnings == ["NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"].NSPinnedLeafIdentities: empty: ATS refuses every connection to api.example.com (line 12)"])
    }

    /// The message of the configuration error `body` throws.
    static func error(_ body: () throws -> Any) throws -> String {
        do {
            _ = try body()
        } catch let error as AppPinConfigurationError {
            return error.description
        }
        throw TestFailure("no configuration error was thrown")
    }
}
