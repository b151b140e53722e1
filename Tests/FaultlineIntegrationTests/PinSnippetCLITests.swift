import FaultlineAppPins
import FaultlineTLS
import FaultlineTestSupport
import Foundation
import Testing

/// `faultline pins compute … --emit ios|android|okhttp|trustkit` through the binary: each
/// block is checked in full, then read back by the `FaultlineAppPins` reader of its format
/// with the backup placeholder replaced by a real second key, and evaluated with that
/// platform's rules against the chain it was computed from: it must PASS.
@Suite(.timeLimit(.minutes(2)))
struct PinSnippetCLITests {
    static let host = "api.example.com"
    static let placeholder = "REPLACE.WITH.BACKUP.PIN"

    /// The minted chain, and a file holding leaf, intermediate and root.
    private static func setup() async throws -> (chain: TLSChain, directory: TemporaryDirectory, full: String) {
        let chain = try await TLSChainFactory.make()
        let directory = try TemporaryDirectory()
        let text = try ["leaf", "int", "root"].map { try String(contentsOfFile: chain.path("\($0).pem"), encoding: .utf8) }.joined()
        return (chain, directory, try directory.write("full.pem", text))
    }

    /// Runs `pins compute` with `arguments`; the output, which must come with exit 0 (its
    /// last line break restored: the process output is kept as lines).
    private static func emit(_ arguments: [String]) async throws -> String {
        let result = try await FaultlineProcess.command(["pins", "compute"] + arguments)
        guard result.status == 0 else { throw TestFailure("pins compute \(arguments) exited \(result.status): \(result.output)") }
        return result.output + "\n"
    }

    /// The chain as an app verifies it: served leaf and intermediate, anchored at the root.
    private static func appChain(_ chain: TLSChain, leaf: String = "leaf") throws -> AppChain {
        let certificates = try [leaf, "int", "root"].map { try Certificate.loadAll(path: chain.path("\($0).pem"))[0] }
        return AppChain(served: Array(certificates.prefix(2)), verified: certificates)
    }

    /// `text` with the placeholder replaced by `backup`, written as `file` and read by the
    /// reader of `platform`; the one configuration it holds.
    private static func readBack(_ text: String, backup: String, platform: AppPlatform, file: String,
                                 in directory: TemporaryDirectory) throws -> AppPinConfiguration {
        #expect(text.components(separatedBy: placeholder).count == 3, "the placeholder, named in the comments and set once: \(text)")
        let path = try directory.write(file, text.replacingOccurrences(of: placeholder, with: backup))
        let configurations = try AppPinReader.read(path: path)
        #expect(configurations.count == 1 && configurations.first?.platform == platform, "\(configurations)")
        return try #require(configurations.first)
    }

    /// Whether the block as printed (placeholder still in) is refused by its reader.
    private static func refusedAsPrinted(_ text: String, platform: AppPlatform, file: String,
                                         in directory: TemporaryDirectory) throws -> String? {
        let path = try directory.write("unreplaced-" + file, text)
        do {
            _ = try AppPinReader.read(path: path, platform: platform)
            return nil
        } catch {
            return error.description
        }
    }

    private static func evaluate(_ configuration: AppPinConfiguration, host: String = host, _ chain: AppChain,
                                 at date: Date = Date()) -> AppPinVerdict {
        AppPinEvaluator.evaluate(configuration, host: host, chain: chain, at: date)
    }

    @Test func iosLeafBlockPassesItsChainAndFailsARotatedLeaf() async throws {
        let (chain, directory, full) = try await Self.setup()
        let text = try await Self.emit([full, "--emit", "ios", "--host", Self.host])
        #expect(text == PinSnippetExpected.iosLeaf(pin: chain.pin("leaf"), origin: full))
        let refusal = try Self.refusedAsPrinted(text, platform: .ats, file: "Info.plist", in: directory)
        #expect(refusal?.contains("SPKI-SHA256-BASE64: not base64 of 32 bytes") == true, "\(refusal ?? "accepted")")
        let configuration = try Self.readBack(text, backup: chain.pin("backup"), platform: .ats, file: "Info.plist", in: directory)
        let current = Self.evaluate(configuration, try Self.appChain(chain))
        #expect(current.outcome == .pass, "\(current)")
        // What the comments warn of: a leaf identity matches the leaf only, and the entry
        // covers no subdomain.
        let rotated = Self.evaluate(configuration, try Self.appChain(chain, leaf: "rotated"))
        #expect(rotated.outcome == .fail && rotated.reason.hasPrefix("pins only leaf keys"), "\(rotated)")
        #expect(Self.evaluate(configuration, host: "x." + Self.host, try Self.appChain(chain)).outcome == .notPinned)
    }

    @Test func iosCABlockPinsTheIntermediateAndSurvivesALeafRotation() async throws {
        let (chain, directory, full) = try await Self.setup()
        let text = try await Self.emit([full, "--emit", "ios", "--host", Self.host, "--position", "intermediate"])
        #expect(text == PinSnippetExpected.iosCA(pin: chain.pin("int"), origin: full))
        let configuration = try Self.readBack(text, backup: chain.pin("backup"), platform: .ats, file: "Info.plist", in: directory)
        #expect(configuration.domains.first?.declaredScopes == [.ca], "\(configuration.domains)")
        for leaf in ["leaf", "rotated"] {
            let verdict = Self.evaluate(configuration, try Self.appChain(chain, leaf: leaf))
            #expect(verdict.outcome == .pass, "\(leaf): \(verdict)")
        }
    }

    @Test func androidBlockPassesUntilItsExpiration() async throws {
        let (chain, directory, full) = try await Self.setup()
        let text = try await Self.emit([full, "--emit", "android", "--host", Self.host, "--expires", "2099-01-31"])
        #expect(text == PinSnippetExpected.android(pin: chain.pin("leaf"), origin: full))
        let refusal = try Self.refusedAsPrinted(text, platform: .android, file: "network_security_config.xml", in: directory)
        #expect(refusal?.contains("invalid pin digest: not base64") == true, "\(refusal ?? "accepted")")
        let configuration = try Self.readBack(text, backup: chain.pin("backup"), platform: .android, file: "network_security_config.xml",
                                              in: directory)
        let current = Self.evaluate(configuration, try Self.appChain(chain))
        #expect(current.outcome == .pass, "\(current)")
        let later = try #require(ISO8601DateFormatter().date(from: "2099-02-01T00:00:00Z"))
        #expect(Self.evaluate(configuration, try Self.appChain(chain), at: later).outcome == .notPinned, "after the expiration, no pins")
        let debuggable = AppPinEvaluator.evaluate(configuration, host: Self.host, chain: try Self.appChain(chain), at: Date(), build: .debuggable)
        #expect(debuggable.outcome == .pass && configuration.overrides.debugTrustAnchors == nil, "debug-overrides stays commented out")
    }

    @Test func okHttpBlockPasses() async throws {
        let (chain, directory, full) = try await Self.setup()
        let text = try await Self.emit([full, "--emit", "okhttp", "--host", Self.host])
        #expect(text == PinSnippetExpected.okHttp(pin: chain.pin("leaf"), origin: full))
        let refusal = try Self.refusedAsPrinted(text, platform: .okHttp, file: "Pinning.kt", in: directory)
        #expect(refusal?.contains("invalid pin hash") == true, "\(refusal ?? "accepted")")
        let configuration = try Self.readBack(text, backup: chain.pin("backup"), platform: .okHttp, file: "Pinning.kt", in: directory)
        #expect(configuration.domains.count == 1 && configuration.domains.first?.pins.count == 2 && configuration.warnings.isEmpty,
                "\(configuration)")
        let current = Self.evaluate(configuration, try Self.appChain(chain))
        #expect(current.outcome == .pass, "\(current)")
        #expect(Self.evaluate(configuration, host: "x." + Self.host, try Self.appChain(chain)).outcome == .notPinned)
    }

    @Test func trustKitBlockHasTwoPinsAndPasses() async throws {
        let (chain, directory, full) = try await Self.setup()
        let text = try await Self.emit([full, "--emit", "trustkit", "--host", Self.host, "--expires", "2099-01-31"])
        #expect(text == PinSnippetExpected.trustKit(pin: chain.pin("leaf"), origin: full))
        let refusal = try Self.refusedAsPrinted(text, platform: .trustKit, file: "TrustKit.plist", in: directory)
        #expect(refusal?.contains("TSKPublicKeyHashes[1]: not base64 of 32 bytes") == true, "\(refusal ?? "accepted")")
        // Without the backup line TrustKit would refuse to start: the pitfall the block names.
        let single = text.components(separatedBy: "\n").filter { !$0.contains("<string>\(Self.placeholder)</string>") }
            .joined(separator: "\n")
        let singleRefusal = try Self.refusedAsPrinted(single, platform: .trustKit, file: "Single.plist", in: directory)
        #expect(singleRefusal?.contains("TrustKit refuses fewer than 2") == true, "\(singleRefusal ?? "accepted")")
        let configuration = try Self.readBack(text, backup: chain.pin("backup"), platform: .trustKit, file: "TrustKit.plist", in: directory)
        let current = Self.evaluate(configuration, try Self.appChain(chain))
        #expect(current.outcome == .pass, "\(current)")
    }

    @Test func liveServerRootPinFromTheVerifiedChainWithADefaultExpiration() async throws {
        let chain = try await TLSChainFactory.make()
        let directory = try TemporaryDirectory()
        let origin = try await TLSOriginProcess.openSSL(certificate: chain.path("leaf.pem"), key: chain.path("leaf.key"),
                                                        chain: chain.path("int.pem"))
        defer { origin.kill() }
        let target = "127.0.0.1:\(origin.port)"
        let text = try await Self.emit([target, "--ca", chain.path("root.pem"), "--emit", "android", "--position", "root"])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let nextYear = formatter.string(from: try #require(calendar.date(byAdding: .year, value: 1, to: Date())))
        #expect(text.contains("generated by faultline pins compute from \(target) (verified chain).\n"), "\(text)")
        #expect(text.contains("Live pin: the root key (CN=Faultline Test Root, verified chain #2).\n"), "\(text)")
        #expect(text.contains("<pin digest=\"SHA-256\">\(chain.pin("root"))</pin>"), "\(text)")
        #expect(text.contains("<pin-set expiration=\"\(nextYear)\">"), "a year from today by default: \(text)")
        let configuration = try Self.readBack(text, backup: chain.pin("backup"), platform: .android, file: "network_security_config.xml",
                                              in: directory)
        let verdict = Self.evaluate(configuration, host: "127.0.0.1", try Self.appChain(chain))
        #expect(verdict.outcome == .pass && verdict.reason.contains("root"), "\(verdict)")
    }

    @Test func usageErrorsSayWhatIsWrong() async throws {
        let (chain, _, full) = try await Self.setup()
        let cases: [([String], String)] = [
            ([full, "--emit", "windows"], "--emit expects ios, android, okhttp or trustkit, got \"windows\""),
            ([full, "--emit", "ios", "--expires", "2099-01-31"], "--expires: ATS pins have no expiration date"),
            ([full, "--emit", "okhttp", "--expires", "2099-01-31"], "--expires: OkHttp pins have no expiration date"),
            ([full, "--emit", "android", "--expires", "2020-01-31"], "--expires 2020-01-31 is not after today"),
            ([full, "--emit", "trustkit", "--expires", "2099-02-30"], "--expires expects a date such as 2027-06-30"),
            ([full, "--emit", "ios", "--position", "middle"], "--position expects leaf, intermediate or root"),
            ([full, "--emit", "ios", "--format", "json"], "--format does not apply"),
            ([full, "--emit", "ios", "--host", "api example.com"], "--host expects a host name"),
            ([full, "--position", "root"], "--position goes with --emit"),
            ([chain.path("chain.pem"), "--emit", "ios", "--position", "root"], "the file has no root certificate"),
        ]
        for (arguments, message) in cases {
            let result = try await FaultlineProcess.command(["pins", "compute"] + arguments)
            #expect(result.status == 2 && result.output.contains(message), "\(arguments): \(result.output)")
        }
    }
}
