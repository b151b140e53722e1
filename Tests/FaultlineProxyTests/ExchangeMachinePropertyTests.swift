import FaultlineHTTP
import FaultlineConfig
import Testing
@testable import FaultlineProxy

/// Properties of the exchange machine over seeded random event sequences, driven the way
/// an adapter drives it (upstream events only while a connection is attached, timers only
/// for what was armed or scheduled).
@Suite("Exchange machine properties over random event sequences")
struct ExchangeMachinePropertyTests {
    /// What the simulated adapter knows, and the properties it checks on every action.
    struct Model {
        var violations: [String] = []
        var ended = false
        var ends = 0
        /// The connection attached to the exchange, if any.
        var attached = false
        var connecting = false
        /// A `connectUpstream` waits for the simulated socket's answer.
        var pendingAttach = false
        var requestWritten = false
        /// The final head of the current attempt arrived, and then its end.
        var finalHeadArrived = false
        var responseEnded = false
        var responseWritten = 0
        var responseHeadWritten = false
        var armed: ConnectionDeadline.Kind?
        var step: FaultStep?
        var awaitingPacer = false

        mutating func check(_ actions: ExchangeActions, exchange: Int, event: String) {
            for action in actions {
                if ended { violations.append("exchange \(exchange): \(action) after its end (\(event))") }
                switch action {
                case .connectUpstream(_, let requestComplete):
                    attached = true
                    pendingAttach = true
                    requestWritten = requestComplete
                    finalHeadArrived = false
                    responseEnded = false
                case .forwardRequestBody, .sendHeldRequest:
                    if !attached { violations.append("exchange \(exchange): \(action) with no upstream (\(event))") }
                case .endRequest(_, let held):
                    if !held {
                        if !attached { violations.append("exchange \(exchange): request end with no upstream") }
                        requestWritten = true
                    }
                case .releaseUpstream:
                    if !(attached && requestWritten && finalHeadArrived && responseEnded) {
                        violations.append("exchange \(exchange): released after an incomplete exchange (\(event))")
                    }
                    attached = false
                case .closeUpstream:
                    attached = false
                case .writeResponseHead:
                    if responseWritten > 0 { violations.append("exchange \(exchange): a second response (\(event))") }
                    responseWritten += 1
                    responseHeadWritten = true
                case .writeLocalResponse, .writeFaultResponse, .writeGarbage, .writeBadChunkFraming:
                    if responseWritten > 0 { violations.append("exchange \(exchange): a second response (\(event))") }
                    responseWritten += 1
                case .forwardResponseBody, .endResponseBody:
                    if !responseHeadWritten { violations.append("exchange \(exchange): body before its head (\(event))") }
                case .armDeadline(let kind, _):
                    armed = kind
                case .disarmDeadline:
                    armed = nil
                case .scheduleFaultStep(let step, _):
                    self.step = step
                case .awaitPacerDrain:
                    awaitingPacer = true
                case .finish, .closeClient:
                    ended = true
                    ends += 1
                default:
                    break
                }
            }
        }
    }

    static func randomMachine(_ rng: inout SeededGenerator) -> ExchangeMachine {
        var plan = FaultPlan()
        plan.names = ["r/f"]
        switch Int.random(in: 0..<12, using: &rng) {
        case 0: plan.requestDelayMs = 10
        case 1: plan.terminal = [.reset, .close, .garbage, .badChunkFraming, .hang(HangFault(ms: 5)),
                                 .status(StatusFault(code: 503))].randomElement(using: &rng)
        case 2: plan.cutAfterBytes = Int.random(in: 0..<8, using: &rng); plan.cutWithReset = Bool.random(using: &rng)
        case 3: plan.downBytesPerSecond = 100; plan.cutAfterBytes = Bool.random(using: &rng) ? 3 : nil
        case 4: plan.replaceStatus = StatusFault(code: 500, upstream: true)
        case 5: plan.corruptJSON = true
        case 6: plan.firstByteDelayMs = 5
        default: plan.names = []
        }
        var setup = MachineFixture.setup(.proxy)
        if Int.random(in: 0..<8, using: &rng) == 0 { setup.start = .refuse(status: 404, message: "no route") }
        setup.requestFraming = [.none, .chunked, .contentLength(4)].randomElement(using: &rng) ?? .none
        setup.upgradeRequested = Int.random(in: 0..<6, using: &rng) == 0
        setup.isIdempotent = Bool.random(using: &rng)
        setup.clientKeepAlive = Int.random(in: 0..<4, using: &rng) != 0
        setup.maxRequestBodyBytes = Bool.random(using: &rng) ? 0 : 16
        return ExchangeMachine(setup: setup, plan: plan)
    }

    /// One random event an adapter could report now; nil when it has nothing to report.
    static func randomEvent(_ machine: inout ExchangeMachine, model: inout Model,
                            rng: inout SeededGenerator) -> (String, ExchangeActions)? {
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1:
            return ("requestBody", machine.requestBodyReceived(count: Int.random(in: 1...6, using: &rng)))
        case 2:
            return ("requestEnd", machine.requestEnded())
        case 3:
            return Int.random(in: 0..<4, using: &rng) == 0 ? ("decodingPaused", machine.decodingPaused()) : nil
        case 4 where model.attached && model.connecting:
            model.connecting = false
            return ("connected", machine.upstreamConnected())
        case 5 where model.attached && !model.finalHeadArrived:
            var head = MachineFixture.responseHead(
                status: [200, 200, 204, 100, 101, 304].randomElement(using: &rng) ?? 200,
                length: Bool.random(using: &rng) ? 6 : nil, keepAlive: Bool.random(using: &rng))
            if !head.isInterim { model.finalHeadArrived = true }
            return ("responseHead", machine.responseHeadReceived(&head))
        case 6 where model.attached && model.finalHeadArrived && !model.responseEnded,
             7 where model.attached && model.finalHeadArrived && !model.responseEnded:
            return ("responseBody", machine.responseBodyReceived(count: Int.random(in: 1...5, using: &rng)))
        case 8 where model.attached && model.finalHeadArrived && !model.responseEnded:
            model.responseEnded = true
            return ("responseEnd", machine.responseEnded())
        case 9 where model.attached:
            model.attached = false
            let facts = UpstreamAttemptFacts(reused: Bool.random(using: &rng), sawResponseBytes: model.finalHeadArrived,
                                             sentNothing: Bool.random(using: &rng), replayable: Bool.random(using: &rng))
            return ("failed", machine.upstreamFailed(Bool.random(using: &rng) ? .closedEarly : .malformed("x"), attempt: facts))
        case 10 where model.armed != nil:
            let kind = model.armed ?? .clientBody
            model.armed = nil
            return ("deadline \(kind)", machine.deadlineExpired(kind))
        case 11 where model.step != nil:
            let step = model.step ?? .contactUpstream
            model.step = nil
            return ("step \(step)", machine.faultStepDue(step))
        case 12 where model.awaitingPacer:
            model.awaitingPacer = false
            return ("pacerDrained", machine.pacerDrained())
        case 13:
            return Int.random(in: 0..<10, using: &rng) == 0 ? ("clientClosed", machine.clientClosed()) : ("tunnel", machine.tunnelActivity())
        default:
            return nil
        }
    }

    /// Runs one connection: exchanges one after the other while each keeps the client.
    static func runConnection(seed: UInt64) -> Model {
        var rng = SeededGenerator(seed: seed)
        var model = Model()
        for exchange in 0..<3 {
            model = Model(violations: model.violations)
            var machine = randomMachine(&rng)
            model.check(machine.requestHeadReceived(), exchange: exchange, event: "head")
            attach(&machine, &model, &rng, exchange: exchange)
            for _ in 0..<60 where !model.ended {
                guard let (name, actions) = randomEvent(&machine, model: &model, rng: &rng) else { continue }
                model.check(actions, exchange: exchange, event: name)
                attach(&machine, &model, &rng, exchange: exchange)
            }
            // However it went, the client eventually goes away: the exchange ends then at the latest.
            if !model.ended { model.check(machine.clientClosed(), exchange: exchange, event: "clientClosed") }
            if model.ends != 1 { model.violations.append("exchange \(exchange) ended \(model.ends) times") }
            if !machine.isDone { model.violations.append("exchange \(exchange) is not done after its end") }
            // A finished machine ignores everything.
            var silent = ExchangeActions()
            for event in MachineFixture.Event.allCases {
                for action in event.apply(to: &machine) { silent.append(action) }
            }
            if !silent.isEmpty { model.violations.append("exchange \(exchange) acted after its end: \(silent.all)") }
        }
        return model
    }

    /// The simulated socket answers a `connectUpstream`: connecting, or a pooled connection.
    static func attach(_ machine: inout ExchangeMachine, _ model: inout Model, _ rng: inout SeededGenerator, exchange: Int) {
        while model.pendingAttach && !model.ended {
            model.pendingAttach = false
            model.connecting = Bool.random(using: &rng)
            model.check(machine.upstreamAttached(connecting: model.connecting), exchange: exchange, event: "attached")
        }
    }

    @Test(arguments: 0..<8)
    func propertiesHoldOverRandomSequences(batch: Int) {
        for index in 0..<100 {
            let seed = UInt64(batch * 100 + index) &* 0x2545_F491_4F6C_DD1D
            let model = Self.runConnection(seed: seed)
            #expect(model.violations.isEmpty, "seed \(seed): \(model.violations)")
        }
    }

    @Test func anyEventInAnyOrderNeverOverflowsTheActionsNorActsAfterTheEnd() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<400 {
            var machine = Self.randomMachine(&rng)
            var ended = false
            for _ in 0..<40 {
                let event = MachineFixture.Event.allCases.randomElement(using: &rng) ?? .clientClosed
                let actions = event.apply(to: &machine)
                #expect(!ended || actions.isEmpty, "\(event) acted after the end")
                if actions.contains(where: { if case .finish = $0 { true } else if case .closeClient = $0 { true } else { false } }) {
                    ended = true
                }
            }
        }
    }
}
