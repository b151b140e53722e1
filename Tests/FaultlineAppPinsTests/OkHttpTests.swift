import FaultlineAppPins
import FaultlineTLS
import FaultlineTestSupport
import Foundation
import Testing

/// OkHttp CertificatePinner: `add` calls scanned from Kotlin and Java, the list format,
/// `*.` (one label) against `**.` (any depth), errors with line numbers.
@Suite(.timeLimit(.minutes(1)))
struct OkHttpTests {
    private func kotlin(_ fixture: AppPinFixture) -> String {
        """
        package com.example.app

        // .add("commented.example.com", "sha256/AAAA")
        val pinner = CertificatePinner.Builder()
            .add("*.example.com", "sha256/\(fixture.rotatedLeafPin)")
            .add(
                "**.example.org",
                "sha256/\(fixture.intermediatePin)", /* backup */
                "sha256/\(fixture.backupPin)"
            )
            .add(hostname, "sha256/\(fixture.rootPin)")
            .build()
        val names = listOf<String>().toMutableList().apply { add("not a pin") }
        """
    }

    @Test func kotlinSourceGivesOneEntryPerAddWithLines() throws {
        let fixture = try AppPinFixture()
        let app = try OkHttpPinnerReader.read(text: kotlin(fixture), file: "Network.kt", source: true)
        #expect(app.platform == .okHttp)
        #expect(app.domains.map(\.pattern) == [.oneLabelBelow("example.com"), .domainAndSubdomains("example.org")])
        #expect(app.domains.map(\.keyPath) == ["add(\"*.example.com\")", "add(\"**.example.org\")"])
        #expect(app.domains.map(\.line) == [5, 6])
        #expect(app.domains[1].pins.map(\.line) == [8, 9])
        #expect(app.domains[1].pins.map(\.value.base64) == [fixture.intermediatePin, fixture.backupPin])
        #expect(app.warnings == ["add(hostname, …): the pattern is not a string literal; entry skipped (line 11)"])
    }

    @Test func singleStarCoversOneLabelAndDoubleStarAnyDepth() throws {
        let fixture = try AppPinFixture()
        let app = try OkHttpPinnerReader.read(text: kotlin(fixture), file: "Network.kt", source: true)
        let oneLabel = AppPinEvaluator.evaluate(app, host: "www.example.com", chain: fixture.current, at: fixture.now)
        #expect(oneLabel.outcome == .fail)
        #expect(oneLabel.entry == "add(\"*.example.com\")")
        #expect(AppPinEvaluator.evaluate(app, host: "www.example.com", chain: fixture.rotated, at: fixture.now).outcome == .pass)
        let deep = AppPinEvaluator.evaluate(app, host: "a.b.example.com", chain: fixture.current, at: fixture.now)
        #expect(deep == AppPinVerdict(outcome: .notPinned, reason: "no CertificatePinner pattern matches a.b.example.com (*.example.com matches exactly one label below example.com; **.example.com would cover a.b.example.com)"))
        #expect(AppPinEvaluator.evaluate(app, host: "example.com", chain: fixture.current, at: fixture.now).outcome == .notPinned)
        for host in ["example.org", "api.example.org", "a.b.example.org"] {
            let verdict = AppPinEvaluator.evaluate(app, host: host, chain: fixture.current, at: fixture.now)
            #expect(verdict == AppPinVerdict(outcome: .pass, reason: "the intermediate CN=App Intermediate,O=Faultline development key is pinned",
                                             entry: "add(\"**.example.org\")"), "\(host)")
        }
        #expect(AppPinEvaluator.evaluate(app, host: "api.example.org", chain: fixture.swapped, at: fixture.now).outcome == .fail)
    }

    @Test func plainListAndJavaFilesFromDisk() throws {
        let fixture = try AppPinFixture()
        let directory = try TemporaryDirectory(prefix: "faultline-apppins")
        let list = try directory.write("pins.txt", """
            # pattern pins...
            api.example.com sha256/\(fixture.leafPin) sha256/\(fixture.backupPin)

            **.example.net sha256/\(fixture.rootPin)
            """)
        let app = try OkHttpPinnerReader.read(path: list)
        #expect(app.domains.map(\.pattern) == [.exact("api.example.com"), .domainAndSubdomains("example.net")])
        #expect(app.domains.map(\.line) == [2, 4])
        let java = try directory.write("Pins.java", """
            CertificatePinner pinner = new CertificatePinner.Builder()
                .add("API.Example.com", "sha256/\(fixture.leafPin)", "sha1/AAAAAAAAAAAAAAAAAAAAAAAAAAA=")
                .build();
            """)
        let fromJava = try #require(try AppPinReader.read(path: java).first)
        #expect(fromJava.domains.map(\.pattern) == [.exact("api.example.com")])
        #expect(fromJava.warnings == ["add(\"API.Example.com\")[2]: a sha1/ pin; only SHA-256 pins are compared here, so this one never matches (line 2)"])
    }

    @Test func malformedPinsAndPatternsAreRefusedWithTheirLine() throws {
        let cases: [(String, String)] = [
            ("val p = CertificatePinner.Builder()\n  .add(\"api.example.com\",\n    \"md5/AAAA\")\n",
             "Pinner.kt: add(\"api.example.com\")[1]: pins must start with 'sha256/' or 'sha1/': \"md5/AAAA\" (line 3)"),
            ("CertificatePinner.Builder().add(\"api.*.example.com\", \"sha256/AAAA\")\n",
             "Pinner.kt: add(\"api.*.example.com\"): unexpected pattern: api.*.example.com (line 1)"),
            ("\n\nCertificatePinner.Builder().add(\"api.example.com\", \"sha256/not base64 !!\")\n",
             "Pinner.kt: add(\"api.example.com\")[1]: invalid pin hash: \"sha256/not base64 !!\" (line 3)"),
        ]
        for (text, expected) in cases {
            #expect(try ATSReaderTests.error { try OkHttpPinnerReader.read(text: text, file: "Pinner.kt", source: true) } == expected)
        }
        let wrongLength = try OkHttpPinnerReader.read(text: "a.example.com sha256/AAAA\n", file: "pins.txt", source: false)
        #expect(wrongLength.warnings == ["add(\"a.example.com\")[1]: decodes to 3 bytes, not 32; OkHttp accepts it but it never matches (line 1)"])
    }

    /// The scan is one linear pass: a pinner inside a lambda passed to another `add(` is
    /// found, a call never closed is skipped without rescanning the rest, and literals and
    /// comments holding parentheses or quotes mean nothing. The inputs are sized so that a
    /// quadratic scan would run far past the suite's time limit.
    @Test func pinnersAreFoundAtAnyDepthAndUnclosedCallsCostOnePass() throws {
        let fixture = try AppPinFixture()
        let pin = "\"sha256/\(fixture.leafPin)\""
        var lambda = ["interceptors.add(Interceptor { chain ->"]
        for number in 0..<2_000 {
            lambda.append("    val v\(number) = listOf(')', '\"', '\\'').map { \"\\\"(\" + it } // ) \"")
        }
        lambda += ["    val s = \"\"\"raw ) \" text", "  spanning lines\"\"\"",
                   "    val pinner = CertificatePinner.Builder().add(\"api.example.com\", /* ( */ \(pin)).build()",
                   "    chain.proceed(chain.request())", "})"]
        let source = lambda.joined(separator: "\n") + "\nval late = b.add(\"late.example.com\", \(pin))\n"
            + "x.add(" + String(repeating: "abcdefghij", count: 100_000) + "\n"
            + String(repeating: "y.add(", count: 50_000) + "\n"
        let app = try OkHttpPinnerReader.read(text: source, file: "Network.kt", source: true)
        #expect(app.domains.map(\.pattern) == [.exact("api.example.com"), .exact("late.example.com")])
        #expect(app.domains.map(\.line) == [2_004, 2_007])
        #expect(app.warnings.isEmpty, "\(app.warnings)")
    }

    @Test func expressionArgumentsAreShownShortAndOnOneLine() throws {
        let fixture = try AppPinFixture()
        let long = String(repeating: "veryLongName.", count: 20) + "host"
        let text = "p.add(\n  config\n      .hostName(  ),\n  \"sha256/\(fixture.leafPin)\")\n"
            + "p.add(\(long), \"sha256/\(fixture.leafPin)\")\n"
        let app = try OkHttpPinnerReader.read(text: text, file: "P.kt", source: true)
        let shown = String(long.prefix(80))
        #expect(app.warnings == ["add(config .hostName( ), …): the pattern is not a string literal; entry skipped (line 1)",
                                 "add(\(shown)…, …): the pattern is not a string literal; entry skipped (line 5)",
                                 "no CertificatePinner entries found"], "\(app.warnings)")
    }
}
