import FaultlineHTTP
import FaultlineConfig
import Testing
@testable import FaultlineProxy

/// Every event in every state: what comes out, or that the event is ignored (no action,
/// same state).
@Suite("Exchange machine: every event in every state")
struct ExchangeMachineTests {
    typealias Reach = MachineFixture.Reach
    typealias Event = MachineFixture.Event

    static let timeout504 = "upstream origin did not answer within 30000 ms"
    static let connect504 = "upstream origin did not accept the connection within 5000 ms"
    static let stalled = "request body stalled for 60000 ms"

    /// The cells that act; every other cell is ignored.
    static let table: [Reach: [Event: [ExchangeAction]]] = {
        var table: [Reach: [Event: [ExchangeAction]]] = [:]
        let abort = MachineFixture.abortActions
        let closed = MachineFixture.upstreamClosedMessage
        for reach in Reach.allCases where reach != .admitted && reach != .done {
            let started = [.drainingPacer, .resetting, .streaming, .tunnel].contains(reach)
            let requestComplete = [.hanging, .drainingPacer].contains(reach)
            var row: [Event: [ExchangeAction]] = [
                .malformed: MachineFixture.local(400, "bad request: x", keepAlive: false),
                .clientClosed: abort,
                .tunnelTimeout: [.noteError(.tunnelIdle), .closeClient(.now)],
            ]
            row[.clientBodyTimeout] = started ? abort : [.closeUpstream] + MachineFixture.local(408, stalled, keepAlive: false)
            row[.responseTimeout] = started
                ? [.noteError(.upstreamTimeout)] + abort
                : [.closeUpstream] + MachineFixture.local(504, timeout504, keepAlive: requestComplete)
            row[.connectTimeout] = started
                ? [.noteError(.upstreamTimeout)] + abort
                : [.closeUpstream] + MachineFixture.local(504, connect504, keepAlive: requestComplete)
            row[.headerTimeout] = [.closeClient(.now)]
            table[reach] = row
        }
        table[.admitted] = [.requestHead: [.connectUpstream(fresh: false, requestComplete: false)],
                            .clientClosed: abort]
        table[.refusal]?[.requestEnd] = MachineFixture.local(404, "no route", keepAlive: true)
        // The fixture's refusal declares no body: nothing is waited for, nothing to cut short.
        table[.faultPending]?[.requestBody] = [.armDeadline(.clientBody, milliseconds: 60000)]
        table[.faultPending]?[.requestEnd] = [.disarmDeadline, .noteError(.fault),
                                             .closeClient(.reset)]
        table[.delaying]?[.requestBody] = [.holdRequestBody(chunked: false)]
        table[.delaying]?[.contactUpstream] = [.connectUpstream(fresh: false, requestComplete: false), .sendHeldRequest]
        table[.awaitingUpstream]?[.requestBody] = [.armDeadline(.clientBody, milliseconds: 60000),
                                                   .forwardRequestBody(chunked: false)]
        table[.awaitingUpstream]?[.requestEnd] = [.endRequest(chunked: false, held: false),
                                                  .armDeadline(.upstreamResponse, milliseconds: 30000)]
        table[.awaitingUpstream]?[.connected] = [.armDeadline(.clientBody, milliseconds: 60000)]
        table[.awaitingUpstream]?[.failed] = [.noteError(.upstreamClosed), .closeUpstream]
            + MachineFixture.local(502, closed, keepAlive: false)
        table[.awaitingUpstream]?[.responseHead] = [
            .writeResponseHead(ResponseHeadShape(framing: .contentLength(5), keepAlive: true)),
            .armDeadline(.upstreamResponse, milliseconds: 30000),
        ]
        table[.awaitingUpstream]?[.interimHead] = [.writeInterimHead]
        table[.awaitingUpstream]?[.switchingHead] = [.closeUpstream]
            + MachineFixture.local(502, UpstreamFailure.unexpectedUpgrade.message, keepAlive: false)
        table[.streaming]?[.requestBody] = [.forwardRequestBody(chunked: false)]
        table[.streaming]?[.requestEnd] = [.endRequest(chunked: false, held: false)]
        table[.streaming]?[.failed] = [.noteError(.upstreamClosed)] + abort
        table[.streaming]?[.responseBody] = [.forwardResponseBody(ResponseBodyPart(count: 3)),
                                             .armDeadline(.upstreamResponse, milliseconds: 30000)]
        table[.streaming]?[.responseEnd] = [.endResponseBody(chunked: false), .closeUpstream, .disarmDeadline,
                                            .finish(keepAlive: false)]
        table[.drainingPacer]?[.failed] = [.noteError(.upstreamClosed)] + abort
        table[.drainingPacer]?[.pacerDrained] = [.finish(keepAlive: true)]
        table[.hanging]?[.endHang] = [.closeClient(.now)]
        table[.resetting]?[.failed] = [.noteError(.upstreamClosed)] + abort
        table[.resetting]?[.resetAfterCut] = [.closeClient(.reset)]
        table[.tunnel]?[.tunnelByte] = [.armDeadline(.tunnelIdle, milliseconds: 300000)]
        table[.tunnel]?[.failed] = [.closeClient(.graceful)]
        return table
    }()

    @Test func fixturesReachTheirStates() {
        #expect(Reach.admitted.machine().state == .admitted)
        #expect(Reach.refusal.machine().state == .awaitingRequestEnd(.refusal))
        #expect(Reach.faultPending.machine().state == .awaitingRequestEnd(.fault))
        #expect(Reach.delaying.machine().state == .delaying)
        #expect(Reach.awaitingUpstream.machine().state == .awaitingUpstream(UpstreamAttempt(number: 1, link: .connected)))
        #expect(Reach.streaming.machine().state
            == .streamingResponse(ResponseStream(framing: .contentLength(5), keepAlive: true, paced: false)))
        #expect(Reach.drainingPacer.machine().state == .drainingPacer(.finish(keepAlive: true)))
        #expect(Reach.hanging.machine().state == .hanging)
        #expect(Reach.resetting.machine().state == .resetting)
        #expect(Reach.tunnel.machine().state == .tunnel)
        #expect(Reach.done.machine().answer == .local(LocalResponse(status: 404, message: "no route", keepAlive: true)))
    }

    @Test(arguments: Reach.allCases, Event.allCases)
    func cell(_ reach: Reach, _ event: Event) {
        var machine = reach.machine()
        let before = machine.state
        var noted = machine.failure != nil
        let actions = event.apply(to: &machine)
        // Only the first cause is noted: a later one stays off the record.
        var expected: [ExchangeAction] = []
        for action in Self.table[reach]?[event] ?? [] {
            if case .noteError = action {
                if noted { continue }
                noted = true
            }
            expected.append(action)
        }
        #expect(actions == expected)
        if expected.isEmpty {
            #expect(machine.state == before, "an ignored event leaves the state alone")
        }
        if let last = actions.last, case .finish = last { #expect(machine.isDone) }
        if let last = actions.last, case .closeClient = last { #expect(machine.isDone) }
    }
}
