import Foundation
import Testing
@testable import FaultlineConfig
import FaultlineHTTP

@Suite("rst_stream, goaway and reset error codes")
struct FaultHTTP2KindsTests {
    static let codeMessage = "expected an HTTP/2 error code (" + HTTP2ErrorCode.names.joined(separator: ", ")
        + ", or an integer 0...4294967295), got "

    @Test func kindsParseWithTheirDefaults() throws {
        let faults = try loadFaults(#"""
            [{"rst_stream": {}}, {"rst_stream": {"error_code": "cancel"}}, {"rst_stream": {"error_code": 255}},
             {"reset": {}}, {"reset": {"after_bytes": 10, "error_code": "ENHANCE_YOUR_CALM"}},
             {"goaway": {}}, {"goaway": {"mode": "graceful"}}, {"goaway": {"mode": "immediate"}},
             {"goaway": {"mode": "immediate", "error_code": 0}}]
            """#)
        #expect(faults.map(\.kind) == [
            .rstStream(RSTStreamFault(errorCode: .refusedStream)), .rstStream(RSTStreamFault(errorCode: .cancel)),
            .rstStream(RSTStreamFault(errorCode: HTTP2ErrorCode(rawValue: 255))),
            .reset(ResetFault(afterBytes: 0, errorCode: .internalError)), .reset(ResetFault(afterBytes: 10, errorCode: .enhanceYourCalm)),
            .goAway(.graceful), .goAway(.graceful), .goAway(.immediate(.internalError)), .goAway(.immediate(.noError)),
        ])
        #expect(faults.map(\.name) == ["rst_stream", "rst_stream-2", "rst_stream-3", "reset", "reset-2",
                                       "goaway", "goaway-2", "goaway-3", "goaway-4"])
        #expect(GoAwayFault.graceful.errorCode == .noError)
        #expect(GoAwayFault.immediate(.cancel).mode == .immediate)
    }

    @Test(arguments: [
        (#"[{"rst_stream": {"error_code": "NOPE"}}]"#, "routes[0].faults[0].rst_stream.error_code: \(codeMessage)\"NOPE\""),
        (#"[{"reset": {"error_code": 4294967296}}]"#, "routes[0].faults[0].reset.error_code: \(codeMessage)4294967296"),
        (#"[{"reset": {"error_code": -1}}]"#, "routes[0].faults[0].reset.error_code: \(codeMessage)-1"),
        (#"[{"goaway": {"mode": "immediate", "error_code": true}}]"#, "routes[0].faults[0].goaway.error_code: \(codeMessage)true"),
        (#"[{"goaway": {"error_code": "CANCEL"}}]"#,
         #"routes[0].faults[0].goaway.error_code: applies only to mode "immediate" (a graceful GOAWAY carries NO_ERROR)"#),
        (#"[{"goaway": {"mode": "sudden"}}]"#, #"routes[0].faults[0].goaway.mode: expected "graceful" or "immediate", got "sudden""#),
        (#"[{"goaway": {"last_stream_id": 1}}]"#, #"routes[0].faults[0].goaway.last_stream_id: unknown key (known: mode, error_code)"#),
        (#"[{"rst_stream": {"error_cod": 1}}]"#, #"routes[0].faults[0].rst_stream.error_cod: unknown key; did you mean "error_code"?"#),
        (#"[{"rst_stream": true}]"#, "routes[0].faults[0].rst_stream: expected an object, got true"),
        (#"[{"go_away": {}}]"#,
         #"routes[0].faults[0]: unknown fault kind "go_away"; did you mean "goaway"? (known: delay, status, reset, close, hang, throttle, truncate, corrupt, rewrite, profile, rst_stream, goaway)"#),
    ])
    func refuses(_ faults: String, expected: String) {
        #expect(configErrors(withFaults(faults)) == [expected])
    }

    private func decide(_ faults: [FaultSpec]) -> [FiredFault] {
        FaultDecider(seed: 1, clock: { 0 }).decide(route: route(faults)).fired
    }

    @Test func rstStreamActsFirstAndEndsTheExchange() {
        let fired = decide([
            FaultSpec(name: "delay", kind: .delay(DelayFault(.fixed(ms: 7)))),
            FaultSpec(name: "hang", kind: .hang(HangFault())),
            FaultSpec(name: "rst", kind: .rstStream(RSTStreamFault(errorCode: .cancel))),
        ])
        #expect(fired.map(\.name) == ["rst"])
        #expect(fired.first?.phase == .request)
        #expect(fired.first?.action == .rstStream(.cancel))
    }

    @Test func gracefulGoAwayComposesAndImmediateEndsTheExchange() {
        let graceful = decide([
            FaultSpec(name: "down", kind: .throttle(ThrottleFault(downBytesPerSecond: 10))),
            FaultSpec(name: "goaway", kind: .goAway(.graceful)),
            FaultSpec(name: "delay", kind: .delay(DelayFault(.fixed(ms: 7)))),
        ])
        #expect(graceful.map(\.name) == ["delay", "goaway", "down"])
        #expect(graceful[1].action == .goAway(.graceful))
        let immediate = decide([
            FaultSpec(name: "goaway", kind: .goAway(.immediate(.enhanceYourCalm))),
            FaultSpec(name: "up", kind: .throttle(ThrottleFault(downBytesPerSecond: 0, upBytesPerSecond: 10))),
            FaultSpec(name: "down", kind: .throttle(ThrottleFault(downBytesPerSecond: 10))),
        ])
        #expect(immediate.map(\.name) == ["goaway"])
        #expect(immediate[0].action == .goAway(.immediate(.enhanceYourCalm)))
        #expect(FaultKind.goAway(.graceful).isTerminal == false)
        #expect(FaultKind.goAway(.immediate(.noError)).isTerminal)
    }

    @Test func resetCarriesItsErrorCodeInTheAction() {
        let fired = decide([FaultSpec(name: "cut", kind: .reset(ResetFault(afterBytes: 5, errorCode: .cancel)))])
        #expect(fired.map(\.action) == [.reset(afterBytes: 5, errorCode: .cancel)])
        #expect(fired.map(\.phase) == [.body])
    }
}
