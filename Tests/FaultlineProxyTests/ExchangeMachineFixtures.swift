import FaultlineHTTP
import FaultlineConfig
import Testing
@testable import FaultlineProxy

/// Machines in every state, and every event, for the exchange machine's tests.
enum MachineFixture {
    static let upstreamClosedMessage = "upstream closed the connection before the response was complete"
    static let abortActions: [ExchangeAction] = [
        .noteError(.clientClosed), .closeClient(.now),
    ]

    /// The states a machine can be driven to, each with a short way there.
    enum Reach: String, CaseIterable, CustomTestStringConvertible {
        case admitted, refusal, faultPending, delaying, awaitingUpstream, streaming, drainingPacer, hanging,
             resetting, tunnel, done

        var testDescription: String { rawValue }

        /// A machine in this state (the request still receiving unless the path ended it).
        func machine() -> ExchangeMachine {
            var plan = FaultPlan()
            var setup = MachineFixture.setup(.proxy)
            switch self {
            case .admitted, .awaitingUpstream, .streaming:
                break
            case .refusal, .done:
                setup.start = .refuse(status: 404, message: "no route")
            case .faultPending:
                plan.terminal = .reset
                plan.names = ["r/reset"]
            case .delaying:
                plan.requestDelayMs = 100
                plan.names = ["r/delay"]
            case .drainingPacer:
                plan.downBytesPerSecond = 1000
                plan.names = ["r/throttle"]
            case .hanging:
                plan.terminal = .hang(HangFault(ms: 100))
                plan.names = ["r/hang"]
            case .resetting:
                plan.cutAfterBytes = 0
                plan.cutWithReset = true
                plan.names = ["r/reset"]
            case .tunnel:
                setup.upgradeRequested = true
            }
            var machine = ExchangeMachine(setup: setup, plan: plan)
            guard self != .admitted else { return machine }
            _ = machine.requestHeadReceived()
            switch self {
            case .awaitingUpstream:
                _ = machine.upstreamAttached(connecting: false)
            case .streaming, .resetting:
                _ = machine.upstreamAttached(connecting: false)
                var head = MachineFixture.responseHead()
                _ = machine.responseHeadReceived(&head)
            case .drainingPacer:
                _ = machine.upstreamAttached(connecting: false)
                _ = machine.requestEnded()
                var head = MachineFixture.responseHead()
                _ = machine.responseHeadReceived(&head)
                _ = machine.responseEnded()
            case .hanging, .done:
                _ = machine.requestEnded()
            case .tunnel:
                _ = machine.upstreamAttached(connecting: false)
                var head = MachineFixture.responseHead(status: 101)
                _ = machine.responseHeadReceived(&head)
            default:
                break
            }
            return machine
        }
    }

    /// Every event the machine takes, with fixed arguments.
    enum Event: String, CaseIterable, CustomTestStringConvertible {
        case requestHead, requestBody, requestEnd, decodingPaused, malformed, attached, connected, failed,
             responseHead, interimHead, switchingHead, responseBody, responseEnd, tunnelByte, clientBodyTimeout,
             connectTimeout, responseTimeout, tunnelTimeout, headerTimeout, contactUpstream, endHang, resetAfterCut, pacerDrained, clientClosed

        var testDescription: String { rawValue }

        func apply(to machine: inout ExchangeMachine) -> [ExchangeAction] {
            switch self {
            case .requestHead: return machine.requestHeadReceived().all
            case .requestBody: return machine.requestBodyReceived(count: 3).all
            case .requestEnd: return machine.requestEnded().all
            case .decodingPaused: return machine.decodingPaused().all
            case .malformed: return machine.requestMalformed(status: 400, message: "bad request: x").all
            case .attached: return machine.upstreamAttached(connecting: true).all
            case .connected: return machine.upstreamConnected().all
            case .failed: return machine.upstreamFailed(.closedEarly, attempt: UpstreamAttemptFacts()).all
            case .responseHead:
                var head = MachineFixture.responseHead()
                return machine.responseHeadReceived(&head).all
            case .interimHead:
                var head = MachineFixture.responseHead(status: 100)
                return machine.responseHeadReceived(&head).all
            case .switchingHead:
                var head = MachineFixture.responseHead(status: 101, length: nil)
                return machine.responseHeadReceived(&head).all
            case .responseBody: return machine.responseBodyReceived(count: 3).all
            case .responseEnd: return machine.responseEnded().all
            case .tunnelByte: return machine.tunnelActivity().all
            case .clientBodyTimeout: return machine.deadlineExpired(.clientBody).all
            case .connectTimeout: return machine.deadlineExpired(.upstreamConnect).all
            case .responseTimeout: return machine.deadlineExpired(.upstreamResponse).all
            case .headerTimeout: return machine.deadlineExpired(.clientHeader).all
            case .tunnelTimeout: return machine.deadlineExpired(.tunnelIdle).all
            case .contactUpstream: return machine.faultStepDue(.contactUpstream).all
            case .endHang: return machine.faultStepDue(.endHang(reset: false)).all
            case .resetAfterCut: return machine.faultStepDue(.resetAfterCut).all
            case .pacerDrained: return machine.pacerDrained().all
            case .clientClosed: return machine.clientClosed().all
            }
        }
    }

    static func setup(_ start: ExchangeSetup.Start) -> ExchangeSetup {
        var setup = ExchangeSetup(start: start)
        setup.upstreamName = "origin"
        return setup
    }

    static func responseHead(status: Int = 200, length: UInt64? = 5, keepAlive: Bool = true) -> HTTPHead {
        var head = HTTPHead()
        head.status = status
        head.contentLength = length
        head.keepAlive = keepAlive
        return head
    }

    /// A local answer as the machine writes it.
    static func local(_ status: Int, _ message: String, keepAlive: Bool) -> [ExchangeAction] {
        var actions: [ExchangeAction] = []
        if status >= 400 { actions.append(.noteError(ExchangeError(localStatus: status))) }
        actions.append(.writeLocalResponse)
        actions.append(.finish(keepAlive: keepAlive))
        return actions
    }
}
