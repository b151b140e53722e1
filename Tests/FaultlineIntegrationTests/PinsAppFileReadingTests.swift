import Foundation
import Testing
import FaultlineTestSupport

/// Reading app pin files of awkward shapes through the real binary, in `faultline pins app`
/// and in the proxy's `pins.app`: Kotlin source that once took quadratic time to scan (a long
/// unterminated `add(`, a large lambda wrapped in `add(`), files over the 1 MiB limit, and a
/// network_security_config.xml whose root element comes after a long comment. The inputs are
/// sized so that the quadratic scanner would need far longer than the suite's time limit:
/// the limit, not a timing assertion, catches a regression.
@Suite(.timeLimit(.minutes(3)))
struct PinsAppFileReadingTests {
    /// `faultline pins app --app LABEL=FILE --chain current=chain.pem --ca root.pem --format json`.
    static func matrix(_ rotation: PinsAppRotation, apps: [String: String]) async throws -> (CommandResult, NSDictionary?) {
        var arguments = [TestPaths.faultline, "pins", "app"]
        for (label, file) in apps.sorted(by: { $0.key < $1.key }) { arguments += ["--app", "\(label)=\(file)"] }
        arguments += ["--chain", "current=\(rotation.chain.path("chain.pem"))", "--ca", rotation.chain.path("root.pem"),
                      "--format", "json"]
        let command = arguments
        let result = try await Blocking.run { try Command.launch(command, timeout: .seconds(150)) }
        let json = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? NSDictionary
        return (result, json)
    }

    /// The `(app, host, outcome)` of each cell.
    static func cells(_ json: NSDictionary?) -> [String] {
        let cells = json?["cells"] as? [[String: Any]] ?? []
        return cells.map { "\($0["app"] as? String ?? "?") \($0["host"] as? String ?? "?") \($0["outcome"] as? String ?? "?")" }
    }

    static func platforms(_ json: NSDictionary?) -> [String] {
        (json?["apps"] as? [[String: Any]] ?? []).map { $0["platform"] as? String ?? "?" }
    }

    /// A pinner for localhost (the chain's leaf and a backup key) in Kotlin.
    static func pinner(_ rotation: PinsAppRotation, indent: String = "") -> String {
        """
        \(indent)val pinner = CertificatePinner.Builder()
        \(indent)    .add("localhost", "sha256/\(rotation.chain.pin("leaf"))", "sha256/\(rotation.chain.pin("backup"))")
        \(indent)    .build()
        """
    }

    /// Kotlin with an interceptor whose 250-line lambda is the argument of one `add(`, the
    /// pinner built inside it.
    static func lambdaSource(_ rotation: PinsAppRotation) -> String {
        var lines = ["package com.example.net", "", "import okhttp3.*", "", "class Network {",
                     "    fun install(builder: OkHttpClient.Builder) {",
                     "        builder.interceptors().add(Interceptor { chain ->",
                     "            val request = chain.request()"]
        for number in 0..<250 {
            switch number % 5 {
            case 0: lines.append("            val trace\(number) = request.header(\"X-Trace-\(number)\") ?: \"none\" // header \(number)")
            case 1: lines.append("            if (trace\(number - 1).length > \(number)) { log(\"long trace\", trace\(number - 1)) }")
            case 2: lines.append("            val sizes\(number) = listOf(1, 2, 3).map { it * \(number) }.filter { it > 2 }")
            case 3: lines.append("            /* step \(number): keep (the order) of \"headers\" */ counters.add(sizes\(number - 1).sum())")
            default: lines.append("            metrics.record(\"step\", \(number), mapOf(\"k\" to \"v\", \"n\" to \"\(number)\"))")
            }
        }
        lines.append(pinner(rotation, indent: "            "))
        lines += ["            chain.proceed(request)", "        })", "    }", "}", ""]
        return lines.joined(separator: "\n")
    }

    @Test func aLongUnterminatedAddCallIsScannedOnce() async throws {
        let rotation = try await PinsAppRotation()
        let letters = String(repeating: "abcdefghij", count: 20_000)
        let path = try rotation.directory.write("Pinning.kt", Self.pinner(rotation) + "\nval x = y.add(" + letters + "\n")
        let (result, json) = try await Self.matrix(rotation, apps: ["okhttp": path])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(Self.platforms(json) == ["okhttp"], "\(result.output)")
        #expect(Self.cells(json) == ["okhttp localhost pass"], "\(result.output)")

        // The proxy reads the same file for pins.app.
        let config = try AppPinUpstreamTests.configFile(rotation.directory, port: 9, chain: rotation.chain, pins: ["app": path])
        let checked = try await FaultlineProcess.command(["check-config", config], timeout: .seconds(150))
        #expect(checked.status == 0, "\(checked.output)")
    }

    @Test func aPinnerInsideALargeLambdaPassedToAddIsFound() async throws {
        let rotation = try await PinsAppRotation()
        let path = try rotation.directory.write("Network.kt", Self.lambdaSource(rotation))
        let (result, json) = try await Self.matrix(rotation, apps: ["okhttp": path])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(Self.cells(json) == ["okhttp localhost pass"], "\(result.output) \(result.error)")
        let config = try AppPinUpstreamTests.configFile(rotation.directory, port: 9, chain: rotation.chain, pins: ["app": path])
        let checked = try await FaultlineProcess.command(["check-config", config], timeout: .seconds(150))
        #expect(checked.status == 0, "\(checked.output)")
    }

    @Test func filesOverOneMebibyteAreRefusedNamingTheFileAndTheLimit() async throws {
        let rotation = try await PinsAppRotation()
        // A valid pinner followed by comment lines up to 2 MiB.
        var text = Self.pinner(rotation) + "\n"
        let filler = "// " + String(repeating: "x", count: 60) + "\n"
        while text.utf8.count + filler.utf8.count <= 2 << 20 { text += filler }
        text += String(repeating: "/", count: (2 << 20) - text.utf8.count - 1) + "\n"
        let path = try rotation.directory.write("Huge.kt", text)
        #expect(text.utf8.count == 2 << 20)
        let limit = "2097152 bytes, larger than the 1 MiB (1048576-byte) limit for an app pin file"
        let (result, _) = try await Self.matrix(rotation, apps: ["huge": path])
        #expect(result.status == 2, "\(result.output) \(result.error)")
        #expect(result.error.split(separator: "\n").first.map(String.init) == "faultline pins app: \(path): \(limit)", "\(result.error)")

        let config = try AppPinUpstreamTests.configFile(rotation.directory, port: 9, chain: rotation.chain, pins: ["app": path])
        let checked = try await FaultlineProcess.command(["check-config", config])
        #expect(checked.status == 3 && checked.output.contains("upstreams.o.pins.app: \(path): \(limit)"), "\(checked.output)")
        let run = try await FaultlineProcess.command(["run", "--config", config], timeout: .seconds(20))
        #expect(run.status == 3 && run.output.contains("upstreams.o.pins.app: \(path): \(limit)"), "\(run.output)")

        // Exactly 1 MiB is still read.
        let head = Self.pinner(rotation) + "\n"
        let fits = try rotation.directory.write("Fits.kt", head + String(repeating: " ", count: (1 << 20) - head.utf8.count))
        let (accepted, json) = try await Self.matrix(rotation, apps: ["fits": fits])
        #expect(accepted.status == 0 && Self.cells(json) == ["fits localhost pass"], "\(accepted.output) \(accepted.error)")
    }

    @Test func networkSecurityConfigWithALongCommentBeforeItsRootIsReadAsAndroid() async throws {
        let rotation = try await PinsAppRotation()
        let comment = (0..<80).map { "  Line \($0) of the licence header: this file is <not> an OkHttp list." }.joined(separator: "\n")
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <!--
            \(comment)
            -->
            <!DOCTYPE network-security-config>
            <?xml-stylesheet href="pins.css"?>

            <network-security-config>
              <domain-config>
                <domain includeSubdomains="false">localhost</domain>
                <pin-set>
                  <pin digest="SHA-256">\(rotation.chain.pin("leaf"))</pin>
                  <pin digest="SHA-256">\(rotation.chain.pin("backup"))</pin>
                </pin-set>
              </domain-config>
            </network-security-config>

            """
        #expect(comment.utf8.count > 5000)
        let path = try rotation.directory.write("network_security_config.xml", xml)
        let (result, json) = try await Self.matrix(rotation, apps: ["android": path])
        // The Android reader refuses processing instructions other than the XML declaration,
        // naming them: the file was recognised as Android.
        #expect(result.status == 2 && result.error.contains("processing instructions"), "\(result.output) \(result.error)")
        #expect(json == nil)

        let plain = try rotation.directory.write("plain_network_security_config.xml",
                                                 xml.replacingOccurrences(of: "<?xml-stylesheet href=\"pins.css\"?>\n", with: ""))
        let (android, androidJSON) = try await Self.matrix(rotation, apps: ["android": plain])
        #expect(android.status == 0, "\(android.output) \(android.error)")
        #expect(Self.platforms(androidJSON) == ["android"] && Self.cells(androidJSON) == ["android localhost pass"], "\(android.output)")

        // The same for an Info.plist.
        let plist = PinsAppRotation.ats(leaf: [rotation.chain.pin("leaf")], ca: nil)
            .replacingOccurrences(of: "<plist", with: "<!--\n\(comment)\n-->\n<plist")
        let info = try rotation.directory.write("Info.plist", plist)
        let (ats, atsJSON) = try await Self.matrix(rotation, apps: ["ios": info])
        #expect(ats.status == 0 && Self.platforms(atsJSON) == ["ats"] && Self.cells(atsJSON) == ["ios localhost pass"],
                "\(ats.output) \(ats.error)")
    }
}
