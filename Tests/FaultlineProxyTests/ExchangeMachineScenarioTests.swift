import FaultlineHTTP
import FaultlineIO
import FaultlineConfig
import Testing
@testable import FaultlineProxy

/// Whole exchanges through the machine: framing, retries, faults, limits.
@Suite("Exchange machine scenarios")
struct ExchangeMachineScenarioTests {
    private func started(_ plan: FaultPlan = FaultPlan(), configure: (inout ExchangeSetup) -> Void = { _ in }) -> ExchangeMachine {
        var setup = MachineFixture.setup(.proxy)
        configure(&setup)
        var machine = ExchangeMachine(setup: setup, plan: plan)
        _ = machine.requestHeadReceived()
        _ = machine.upstreamAttached(connecting: false)
        return machine
    }

    private func refused(_ framing: BodyFraming) -> ExchangeMachine {
        var setup = MachineFixture.setup(.refuse(status: 404, message: "no route"))
        setup.requestFraming = framing
        var machine = ExchangeMachine(setup: setup)
        #expect(machine.requestHeadReceived().all == [.armDeadline(.clientBody, milliseconds: 60000)])
        return machine
    }

    @Test func aRefusalWithASmallBodyReadsItToTheEndAndKeepsTheClient() {
        for framing in [BodyFraming.contentLength(10), .chunked] {
            var machine = refused(framing)
            #expect(machine.requestBodyReceived(count: 5).all == [.armDeadline(.clientBody, milliseconds: 60000)])
            #expect(machine.decodingPaused().isEmpty, "a small body is waited for: \(framing)")
            #expect(machine.requestEnded().all == [.disarmDeadline] + MachineFixture.local(404, "no route", keepAlive: true))
        }
    }

    @Test func aRefusalWithALargeDeclaredBodyIsAnsweredAtOnceAndCloses() {
        var machine = refused(.contentLength(ExchangeMachine.refusalDiscardLimit + 1))
        _ = machine.requestBodyReceived(count: 100)
        #expect(machine.decodingPaused().all == [.disarmDeadline] + MachineFixture.local(404, "no route", keepAlive: false))
    }

    @Test func aRefusalWhoseClientWaitsForContinueIsAnsweredWithoutTheBody() {
        var setup = MachineFixture.setup(.refuse(status: 404, message: "no route"))
        setup.requestFraming = .contentLength(10)
        setup.refusedExpectingContinue = true
        var machine = ExchangeMachine(setup: setup)
        _ = machine.requestHeadReceived()
        #expect(machine.decodingPaused().all == [.disarmDeadline] + MachineFixture.local(404, "no route", keepAlive: false))
    }

    @Test func aChunkedRefusalPastTheDiscardLimitIsAnsweredAndCloses() {
        var machine = refused(.chunked)
        let limit = Int(ExchangeMachine.refusalDiscardLimit)
        #expect(machine.requestBodyReceived(count: limit).all == [.armDeadline(.clientBody, milliseconds: 60000)])
        #expect(machine.requestBodyReceived(count: 1).all == [.disarmDeadline] + MachineFixture.local(404, "no route", keepAlive: false))
    }

    @Test func keepAliveGetReleasesTheConnectionAndKeepsTheClient() {
        var machine = started()
        #expect(machine.requestEnded().all == [.endRequest(chunked: false, held: false),
                                               .armDeadline(.upstreamResponse, milliseconds: 30000)])
        var head = MachineFixture.responseHead()
        _ = machine.responseHeadReceived(&head)
        _ = machine.responseBodyReceived(count: 5)
        #expect(machine.responseEnded().all == [.endResponseBody(chunked: false), .releaseUpstream, .disarmDeadline,
                                                .finish(keepAlive: true)])
    }

    @Test func chunkedRequestAndUnframedResponseAreFramedForEachSide() {
        var machine = started { $0.requestFraming = .chunked }
        #expect(machine.requestBodyReceived(count: 4).all.contains(.forwardRequestBody(chunked: true)))
        #expect(machine.requestEnded().all.first == .endRequest(chunked: true, held: false))
        var head = MachineFixture.responseHead(length: nil)
        #expect(machine.responseHeadReceived(&head).all.first
            == .writeResponseHead(ResponseHeadShape(framing: .chunked, keepAlive: true)))
        #expect(machine.responseBodyReceived(count: 2).all.first == .forwardResponseBody(ResponseBodyPart(count: 2, chunked: true)))
        #expect(machine.responseEnded().all.first == .endResponseBody(chunked: true))
    }

    @Test func anHTTP10ClientGetsAResponseUntilCloseAndNoKeepAlive() {
        var machine = started { $0.clientMinorVersion = 0 }
        _ = machine.requestEnded()
        var interim = MachineFixture.responseHead(status: 100)
        #expect(machine.responseHeadReceived(&interim).isEmpty, "HTTP/1.0 clients get no interim response")
        var head = MachineFixture.responseHead(length: nil)
        #expect(machine.responseHeadReceived(&head).all.first
            == .writeResponseHead(ResponseHeadShape(framing: .untilClose, keepAlive: false)))
        #expect(machine.responseEnded().all.last == .finish(keepAlive: false))
    }

    @Test func aStalePooledConnectionIsRetriedOnceOnAFreshOne() {
        var machine = started()
        _ = machine.requestEnded()
        let stale = UpstreamAttemptFacts(reused: true, sawResponseBytes: false, sentNothing: false, replayable: true)
        #expect(machine.upstreamFailed(.closedEarly, attempt: stale).all == [.connectUpstream(fresh: true, requestComplete: true)])
        #expect(machine.state == .awaitingUpstream(UpstreamAttempt(number: 2, link: .attaching)))
        _ = machine.upstreamAttached(connecting: true)
        let second = machine.upstreamFailed(.closedEarly, attempt: stale).all
        #expect(second.contains(.writeLocalResponse))
        #expect(machine.answer == .local(LocalResponse(status: 502, message: MachineFixture.upstreamClosedMessage,
                                                                keepAlive: true)))
        #expect(machine.failure == ExchangeFailure(error: .upstreamClosed, message: MachineFixture.upstreamClosedMessage))
    }

    @Test func aPostIsRetriedOnlyIfTheUpstreamReceivedNothing() {
        var machine = started { $0.isIdempotent = false }
        var sent = UpstreamAttemptFacts(reused: true, sawResponseBytes: false, sentNothing: false, replayable: true)
        #expect(!machine.upstreamFailed(.closedEarly, attempt: sent).all.contains(.connectUpstream(fresh: true, requestComplete: false)))
        machine = started { $0.isIdempotent = false }
        sent.sentNothing = true
        #expect(machine.upstreamFailed(.io(IOError("read", code: 104)), attempt: sent).all == [.connectUpstream(fresh: true, requestComplete: false)])
    }

    @Test func aTruncateFaultCutsTheBodyAtItsByteCount() {
        var plan = FaultPlan()
        plan.cutAfterBytes = 4
        plan.names = ["r/truncate"]
        var machine = started(plan)
        var head = MachineFixture.responseHead(length: 10)
        _ = machine.responseHeadReceived(&head)
        #expect(machine.responseBodyReceived(count: 3).all.first == .forwardResponseBody(ResponseBodyPart(count: 3)))
        let cut = machine.responseBodyReceived(count: 3).all
        #expect(cut == [.forwardResponseBody(ResponseBodyPart(count: 1)), .armDeadline(.upstreamResponse, milliseconds: 30000),
                        .closeUpstream,
                        .noteError(.fault),
                        .closeClient(.graceful)])
        #expect(machine.failure?.message == "response cut after 4 body bytes by fault r/truncate (connection closed)")
        #expect(machine.responseBodyReceived(count: 3).isEmpty)
    }

    @Test func aPacedResponseEndsOnlyOnceThePacerDrained() {
        var plan = FaultPlan()
        plan.firstByteDelayMs = 200
        plan.cutAfterBytes = 2
        plan.cutWithReset = true
        plan.names = ["r/slow"]
        var machine = started(plan)
        var head = MachineFixture.responseHead()
        let actions = machine.responseHeadReceived(&head).all
        #expect(actions.first == .startPacer)
        #expect(machine.pacerSettings == PacerSettings(bytesPerSecond: 0, chunkBytes: 1024, holdMilliseconds: 200))
        #expect(actions.contains(.disarmDeadline))
        let cut = machine.responseBodyReceived(count: 5).all
        #expect(cut.last == .awaitPacerDrain)
        #expect(machine.pacerDrained().all == [.scheduleFaultStep(.resetAfterCut, milliseconds: 50)])
        #expect(machine.faultStepDue(.resetAfterCut).all == [.closeClient(.reset)])
    }

    @Test func corruptJSONReplacesOnlyTheFirstByte() {
        var plan = FaultPlan()
        plan.corruptJSON = true
        plan.names = ["r/corrupt"]
        var machine = started(plan)
        var head = MachineFixture.responseHead()
        _ = machine.responseHeadReceived(&head)
        #expect(machine.responseBodyReceived(count: 2).all.first
            == .forwardResponseBody(ResponseBodyPart(count: 2, corruptFirstByte: true)))
        #expect(machine.responseBodyReceived(count: 2).all.first == .forwardResponseBody(ResponseBodyPart(count: 2)))
    }

    @Test func anUpstreamStatusFaultAnswersInsteadOfTheUpstream() {
        var plan = FaultPlan()
        let status = StatusFault(code: 503, upstream: true)
        plan.replaceStatus = status
        plan.names = ["r/503"]
        var machine = started(plan)
        _ = machine.requestEnded()
        var head = MachineFixture.responseHead()
        #expect(machine.responseHeadReceived(&head).all == [.closeUpstream, .writeFaultResponse, .finish(keepAlive: true)])
        #expect(machine.answer == .fault(status, keepAlive: true))
    }

    @Test func aRewriteFaultChangesTheHeadTheClientGets() {
        var plan = FaultPlan()
        plan.rewrite = RewriteFault(status: 204)
        plan.names = ["r/rewrite"]
        var machine = started(plan) { $0.faultMarker = "r/rewrite" }
        var head = MachineFixture.responseHead()
        let actions = machine.responseHeadReceived(&head).all
        #expect(head.status == 204)
        #expect(actions.first == .writeResponseHead(ResponseHeadShape(framing: .none, keepAlive: true, marked: true)))
        #expect(machine.responseBodyReceived(count: 5).isEmpty, "a 204 carries no body")
    }

    @Test func anUnrequestedUpgradeIsAGatewayError() {
        var machine = started()
        var head = MachineFixture.responseHead(status: 101)
        let actions = machine.responseHeadReceived(&head).all
        #expect(actions.first == .closeUpstream)
        #expect(actions.contains(.noteError(.upstreamError)))
    }

    @Test func theBodyLimitRefusesBeforeAndCutsAfterTheResponseStarted() {
        var machine = started { $0.maxRequestBodyBytes = 10 }
        #expect(machine.requestBodyReceived(count: 10).all.contains(.forwardRequestBody(chunked: false)))
        #expect(machine.requestBodyReceived(count: 1).all == [.closeUpstream]
            + MachineFixture.local(413, "request body exceeds the limit of 10 bytes", keepAlive: false))
        machine = started { $0.maxRequestBodyBytes = 10 }
        var head = MachineFixture.responseHead()
        _ = machine.responseHeadReceived(&head)
        #expect(machine.requestBodyReceived(count: 11).all == [
            .noteError(.bodyTooLarge), .closeClient(.now)])
        #expect(machine.failure?.message == "request body exceeds the limit of 10 bytes")
    }

    @Test func aHeadRequestsLocalAnswerHasNoBodyAndDrainingEndsKeepAlive() {
        var setup = MachineFixture.setup(.refuse(status: 404, message: "no route"))
        setup.isHeadRequest = true
        var machine = ExchangeMachine(setup: setup)
        _ = machine.requestHeadReceived()
        machine.drain()
        #expect(machine.requestEnded().all.contains(.writeLocalResponse))
        #expect(machine.answer == .local(LocalResponse(status: 404, message: "no route", keepAlive: false,
                                                                includeBody: false)))
    }

    @Test func terminalFaultsAnswerOnceTheRequestWasRead() {
        let cases: [(FaultPlan.Terminal, [ExchangeAction])] = [
            (.close, [.disarmDeadline, .noteError(.fault), .closeClient(.now)]),
            (.garbage, [.disarmDeadline, .noteError(.fault), .writeGarbage, .closeClient(.graceful)]),
            (.badChunkFraming, [.disarmDeadline, .writeBadChunkFraming, .noteError(.fault),
                                .closeClient(.graceful)]),
            (.hang(HangFault(ms: nil)), [.disarmDeadline, .noteError(.fault)]),
            (.hang(HangFault(ms: 5, then: .reset)), [.disarmDeadline, .noteError(.fault),
                                                    .scheduleFaultStep(.endHang(reset: true), milliseconds: 5)]),
            (.status(StatusFault(code: 500)), [.disarmDeadline, .writeFaultResponse, .finish(keepAlive: true)]),
        ]
        for (terminal, expected) in cases {
            var plan = FaultPlan()
            plan.terminal = terminal
            plan.names = ["r/f"]
            var machine = ExchangeMachine(setup: MachineFixture.setup(.proxy), plan: plan)
            #expect(machine.requestHeadReceived().all == [.armDeadline(.clientBody, milliseconds: 60000)])
            #expect(machine.requestBodyReceived(count: 1).all == [.armDeadline(.clientBody, milliseconds: 60000)],
                    "the body is read and dropped")
            #expect(machine.requestEnded().all == expected)
        }
    }

    @Test func aDelayHoldsTheRequestUntilItsStep() {
        var plan = FaultPlan()
        plan.requestDelayMs = 20
        plan.names = ["r/delay"]
        var machine = ExchangeMachine(setup: MachineFixture.setup(.proxy), plan: plan)
        #expect(machine.requestHeadReceived().all == [.scheduleFaultStep(.contactUpstream, milliseconds: 20)])
        #expect(machine.requestEnded().isEmpty)
        #expect(machine.faultStepDue(.contactUpstream).all == [.connectUpstream(fresh: false, requestComplete: true),
                                                              .sendHeldRequest])
        #expect(machine.upstreamAttached(connecting: true).all == [.armDeadline(.upstreamConnect, milliseconds: 5000)])
        #expect(machine.upstreamConnected().all == [.armDeadline(.upstreamResponse, milliseconds: 30000)])
    }

    @Test func uploadThrottlePausesReadsForTheBytesItRead() {
        var plan = FaultPlan()
        plan.upBytesPerSecond = 1000
        plan.names = ["r/up"]
        var machine = started(plan)
        #expect(machine.uploadPause(afterReading: 500) == 500)
        #expect(machine.uploadPause(afterReading: 0) == nil)
        _ = machine.requestEnded()
        #expect(machine.uploadPause(afterReading: 500) == nil, "a complete request is not throttled")
    }

    @Test func errorTypesLogTheirFormerStrings() {
        #expect(ExchangeError(localStatus: 431).rawValue == "bad_request")
        #expect(ExchangeError(localStatus: 404).rawValue == "no_route")
        #expect(ExchangeError(localStatus: 502).rawValue == "upstream_error")
        #expect(UpstreamFailure.closedEarly.error.rawValue == "upstream_closed")
        #expect(UpstreamFailure.noAddress(upstream: "a").error.rawValue == "upstream_connect")
        #expect(ExchangeError.allCases.count == Set(ExchangeError.allCases.map(\.rawValue)).count)
    }
}
