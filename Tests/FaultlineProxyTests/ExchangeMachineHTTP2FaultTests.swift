import FaultlineHTTP
@testable import FaultlineConfig
import Testing
@testable import FaultlineProxy

/// The faults with an HTTP/2 meaning, through the machine: what each event produces for
/// rst_stream, goaway and a reset's error code (the HTTP/1 adapter and a stream adapter
/// perform the same actions their own way).
@Suite("Exchange machine: rst_stream, goaway, reset codes")
struct ExchangeMachineHTTP2FaultTests {
    /// An event of the request's life and the actions it must produce.
    enum Step {
        case head([ExchangeAction])
        case body([ExchangeAction])
        case end([ExchangeAction])
        case attach
        case responseHead(keepAlive: Bool)
        case responseEnd(last: ExchangeAction)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let label: String
        let actions: [FaultAction]
        let steps: [Step]
        var resetCode: HTTP2ErrorCode = .internalError
        var testDescription: String { label }
    }

    static let body = ExchangeAction.armDeadline(.clientBody, milliseconds: 60000)

    static let rows: [Row] = [
        Row(label: "rst_stream refuses on the head; the body is never read, the upstream never asked",
            actions: [.rstStream(.cancel)],
            steps: [.head([.noteError(.fault), .closeClient(.refuseStream(.cancel))]), .body([]), .end([])]),
        Row(label: "rst_stream wins over a delay that fired with it",
            actions: [.rstStream(.refusedStream), .delay(ms: 50)],
            steps: [.head([.noteError(.fault), .closeClient(.refuseStream(.refusedStream))]), .end([])]),
        Row(label: "immediate goaway closes before any response once the request is read",
            actions: [.goAway(.immediate(.enhanceYourCalm))],
            steps: [.head([body]), .body([body]),
                      .end([.disarmDeadline, .noteError(.fault), .closeClient(.goAway(.enhanceYourCalm))])]),
        Row(label: "graceful goaway passes the response and ends keep-alive",
            actions: [.goAway(.graceful)],
            steps: [.head([.sendGracefulGoAway, .connectUpstream(fresh: false, requestComplete: false)]), .attach,
                      .end([.endRequest(chunked: false, held: false), .armDeadline(.upstreamResponse, milliseconds: 30000)]),
                      .responseHead(keepAlive: false), .responseEnd(last: .finish(keepAlive: false))]),
        Row(label: "graceful goaway with a delay: the GOAWAY goes first, the upstream after the delay",
            actions: [.delay(ms: 40), .goAway(.graceful)],
            steps: [.head([.sendGracefulGoAway, .scheduleFaultStep(.contactUpstream, milliseconds: 40)])]),
        Row(label: "reset before the response carries its code",
            actions: [.reset(afterBytes: 0, errorCode: .cancel)],
            steps: [.head([body]), .end([.disarmDeadline, .noteError(.fault), .closeClient(.reset)])],
            resetCode: .cancel),
        Row(label: "reset after N bytes carries its code",
            actions: [.reset(afterBytes: 3, errorCode: .streamClosed)],
            steps: [.head([.connectUpstream(fresh: false, requestComplete: false)])],
            resetCode: .streamClosed),
        Row(label: "a lost profile request resets with INTERNAL_ERROR",
            actions: [.profile(.veryBad, lost: true)],
            steps: [.head([body]), .end([.disarmDeadline, .noteError(.fault), .closeClient(.reset)])]),
    ]

    private static func machine(_ actions: [FaultAction]) -> ExchangeMachine {
        let fired = actions.enumerated().map { index, action in
            FiredFault(faultIndex: index, name: "f\(index)", phase: .request, action: action)
        }
        let plan = FaultPlan(FaultDecision(routeIndex: 0, fired: fired), routeName: "r")
        return ExchangeMachine(setup: MachineFixture.setup(.proxy), plan: plan)
    }

    @Test(arguments: rows)
    func steps(_ row: Row) {
        var machine = Self.machine(row.actions)
        #expect(machine.resetErrorCode == row.resetCode)
        for step in row.steps {
            switch step {
            case .head(let expected): #expect(machine.requestHeadReceived().all == expected, "head")
            case .body(let expected): #expect(machine.requestBodyReceived(count: 5).all == expected, "body")
            case .end(let expected): #expect(machine.requestEnded().all == expected, "end")
            case .attach: _ = machine.upstreamAttached(connecting: false)
            case .responseHead(let keepAlive):
                var head = MachineFixture.responseHead()
                let first = machine.responseHeadReceived(&head).all.first
                guard case .writeResponseHead(let shape)? = first else {
                    Issue.record("expected a response head, got \(String(describing: first))")
                    return
                }
                #expect(shape.keepAlive == keepAlive)
            case .responseEnd(let last):
                _ = machine.responseBodyReceived(count: 5)
                #expect(machine.responseEnded().all.last == last)
            }
        }
    }

    @Test func noFaultResetsWithInternalError() {
        #expect(ExchangeMachine(setup: MachineFixture.setup(.proxy)).resetErrorCode == .internalError)
    }
}
