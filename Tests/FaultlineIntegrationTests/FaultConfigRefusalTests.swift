import Foundation
import Testing
import FaultlineTestSupport

/// A bad fault in the config is refused by `check-config` (exit 3) with a message naming
/// the field; `run` refuses to start on it.
@Suite(.timeLimit(.minutes(1)))
struct FaultConfigRefusalTests {
    struct BadFault: Sendable, CustomTestStringConvertible {
        let what: String
        /// The `faults` array of the single route, and the field path the message must name.
        let faults: String
        let field: String
        let fragment: String
        var upstream = "o"
        var testDescription: String { what }
    }

    static let cases: [BadFault] = [
        BadFault(what: "unknown fault kind", faults: #"[{"explode": {}}]"#,
                 field: "routes[0].faults[0]", fragment: "explode"),
        BadFault(what: "probability 1.5", faults: #"[{"status": 503, "when": {"probability": 1.5}}]"#,
                 field: "routes[0].faults[0].when.probability", fragment: "1.5"),
        BadFault(what: "status 99", faults: #"[{"status": {"code": 99}}]"#,
                 field: "routes[0].faults[0].status.code", fragment: "99"),
        BadFault(what: "status shorthand 99", faults: #"[{"status": 99}]"#,
                 field: "routes[0].faults[0].status", fragment: "99"),
        BadFault(what: "two kinds in one fault", faults: #"[{"reset": {}, "close": {}}]"#,
                 field: "routes[0].faults[0]", fragment: ""),
        BadFault(what: "unknown corrupt mode", faults: #"[{"corrupt": {"mode": "scramble"}}]"#,
                 field: "routes[0].faults[0].corrupt.mode", fragment: "scramble"),
        BadFault(what: "unknown profile", faults: #"[{"profile": "5g"}]"#,
                 field: "routes[0].faults[0].profile", fragment: "5g"),
        BadFault(what: "65 faults in one route", faults: "[" + Array(repeating: #"{"delay": 1}"#, count: 65).joined(separator: ", ") + "]",
                 field: "routes[0].faults", fragment: "at most 64 faults per rule, got 65"),
        BadFault(what: "unknown route upstream", faults: "[]",
                 field: "routes[0].upstream", fragment: "nope", upstream: "nope"),
    ]

    @Test(arguments: FaultConfigRefusalTests.cases)
    func checkConfigRefusesNamingTheField(_ bad: BadFault) async throws {
        let directory = try TemporaryDirectory()
        let port = try FreePort.closed()
        var text = FaultStack.configText(originPort: port, routes: [.init(name: "r", faults: bad.faults)])
        if bad.upstream != "o" { text = text.replacingOccurrences(of: #""upstream": "o""#, with: #""upstream": "\#(bad.upstream)""#) }
        let path = try directory.write("faultline.json", text)
        let (status, output) = try await FaultlineProcess.command(["check-config", path])
        #expect(status == 3, "exit \(status): \(output)")
        let line = output.split(separator: "\n").first { $0.contains(bad.field + ":") }
        #expect(line != nil, "no line naming \(bad.field): \(output)")
        if let line, !bad.fragment.isEmpty { #expect(line.contains(bad.fragment), "\(line)") }

        // `run` refuses the same file and never listens.
        let (runStatus, runOutput) = try await FaultlineProcess.command(["run", "--config", path])
        #expect(runStatus == 3, "run exit \(runStatus): \(runOutput)")
        #expect(!runOutput.contains("listening on"), "\(runOutput)")
    }
}
