import Testing
@testable import FaultlineIO

/// Every transition of a stream socket's lifecycle in every stage, without a socket.
@Suite("Stream socket lifecycle")
struct StreamSocketLifecycleTests {
    /// The stages by name, for readable failures.
    enum Stage: String, CaseIterable, CustomTestStringConvertible {
        case connecting, connectingClosing, connectingSecure, handshaking, open, inputClosed, lingering, closed

        var testDescription: String { rawValue }
    }

    private static let timer = TimerID(value: 7)
    private static let otherTimer = TimerID(value: 8)

    private static func make(_ stage: Stage) -> StreamSocketLifecycle {
        switch stage {
        case .connecting: .connecting(closingTimer: nil)
        case .connectingClosing: .connecting(closingTimer: timer)
        case .connectingSecure: .connectingSecure(pending: [1, 2])
        case .handshaking: .handshaking(pending: [3])
        case .open: .open
        case .inputClosed: .inputClosed
        case .lingering: .lingering(timer: timer)
        case .closed: .closed(duringSetup: false)
        }
    }

    private static func stage(of lifecycle: StreamSocketLifecycle) -> Stage {
        switch lifecycle {
        case .connecting(closingTimer: nil): .connecting
        case .connecting(closingTimer: _?): .connectingClosing
        case .connectingSecure: .connectingSecure
        case .handshaking: .handshaking
        case .open: .open
        case .inputClosed: .inputClosed
        case .lingering: .lingering
        case .closed: .closed
        }
    }

    @Test func firstStageFollowsHowTheSocketWasMade() {
        #expect(Self.stage(of: StreamSocketLifecycle(connecting: true, secure: false)) == .connecting)
        #expect(Self.stage(of: StreamSocketLifecycle(connecting: true, secure: true)) == .connectingSecure)
        #expect(Self.stage(of: StreamSocketLifecycle(connecting: false, secure: true)) == .handshaking)
        #expect(Self.stage(of: StreamSocketLifecycle(connecting: false, secure: false)) == .open)
        #expect(StreamSocketLifecycle(connecting: false, secure: true).pendingPlaintextCount == 0)
    }

    @Test(arguments: Stage.allCases)
    func tcpConnected(from stage: Stage) {
        var lifecycle = Self.make(stage)
        let expected: [Stage: (StreamSocketLifecycle.AfterConnect, Stage)] = [
            .connecting: (.established, .open),
            .connectingClosing: (.drain, .lingering),
            .connectingSecure: (.startHandshake, .handshaking),
        ]
        let outcome = lifecycle.tcpConnected()
        let (action, next) = expected[stage] ?? (.ignored, stage)
        #expect(outcome == action)
        #expect(Self.stage(of: lifecycle) == next)
        if stage == .connectingSecure { #expect(lifecycle.pendingPlaintextCount == 2, "held plaintext survives the connect") }
        if stage == .connectingClosing { #expect(lifecycle.closingTimer == Self.timer, "the grace timer carries over") }
    }

    @Test(arguments: Stage.allCases)
    func handshakeCompleted(from stage: Stage) {
        var lifecycle = Self.make(stage)
        let pending = lifecycle.handshakeCompleted()
        if stage == .handshaking {
            #expect(pending == [3])
            #expect(Self.stage(of: lifecycle) == .open)
        } else {
            #expect(pending == nil)
            #expect(Self.stage(of: lifecycle) == stage)
        }
    }

    @Test(arguments: Stage.allCases)
    func holdPlaintext(in stage: Stage) {
        var lifecycle = Self.make(stage)
        let before = lifecycle.pendingPlaintextCount
        let held = [UInt8]([9, 9, 9]).withUnsafeBytes { lifecycle.holdPlaintext($0) }
        let holds = stage == .connectingSecure || stage == .handshaking
        #expect(held == holds)
        #expect(lifecycle.pendingPlaintextCount == before + (holds ? 3 : 0))
        #expect(Self.stage(of: lifecycle) == stage)
    }

    @Test(arguments: Stage.allCases)
    func endOfInput(in stage: Stage) {
        var lifecycle = Self.make(stage)
        let expected: [Stage: (StreamSocketLifecycle.AfterEndOfInput, Stage)] = [
            .open: (.report, .inputClosed),
            .lingering: (.close, .lingering),
            .connectingSecure: (.abortHandshake, .connectingSecure),
            .handshaking: (.abortHandshake, .handshaking),
        ]
        let outcome = lifecycle.endOfInput()
        let (action, next) = expected[stage] ?? (.ignored, stage)
        #expect(outcome == action)
        #expect(Self.stage(of: lifecycle) == next)
    }

    @Test(arguments: Stage.allCases)
    func startClosing(from stage: Stage) {
        var lifecycle = Self.make(stage)
        let expected: [Stage: Stage] = [
            .connecting: .connectingClosing, .handshaking: .lingering, .open: .lingering, .inputClosed: .lingering,
        ]
        let started = lifecycle.startClosing(timer: Self.otherTimer)
        #expect(started == (expected[stage] != nil))
        #expect(Self.stage(of: lifecycle) == expected[stage] ?? stage)
        if started {
            #expect(lifecycle.closingTimer == Self.otherTimer)
            #expect(lifecycle.isClosing)
            #expect(lifecycle.pendingPlaintextCount == 0, "plaintext held for a handshake is dropped")
        }
    }

    @Test(arguments: Stage.allCases)
    func closeFromEveryStage(from stage: Stage) {
        var lifecycle = Self.make(stage)
        let left = lifecycle.close()
        #expect(Self.stage(of: left) == stage)
        #expect(lifecycle.isClosed)
        #expect(lifecycle.closingTimer == nil)
        #expect(left.closingTimer == ([.lingering, .connectingClosing].contains(stage) ? Self.timer : nil))
        // Closed is final: nothing moves it again.
        let connect = lifecycle.tcpConnected()
        let handshake = lifecycle.handshakeCompleted()
        let end = lifecycle.endOfInput()
        let closing = lifecycle.startClosing(timer: Self.otherTimer)
        #expect(connect == .ignored && handshake == nil && end == .ignored && !closing)
        #expect(lifecycle.isClosed)
    }

    /// A connect or handshake that fails leaves the socket "connecting", so its owner can
    /// tell a failed setup from a failure of an established connection.
    @Test(arguments: Stage.allCases)
    func connectingSurvivesAFailedSetup(from stage: Stage) {
        var lifecycle = Self.make(stage)
        let settingUp = [.connecting, .connectingClosing, .connectingSecure, .handshaking].contains(stage)
        #expect(lifecycle.isSettingUp == settingUp)
        #expect(lifecycle.isConnecting(client: true) == settingUp)
        #expect(lifecycle.isConnecting(client: false) == [.connecting, .connectingClosing, .connectingSecure].contains(stage))
        _ = lifecycle.close()
        #expect(lifecycle.isConnecting(client: true) == settingUp)
        #expect(!lifecycle.isConnecting(client: false))
        _ = lifecycle.close()
        #expect(lifecycle.isConnecting(client: true) == settingUp, "a second close keeps what the first recorded")
    }

    @Test(arguments: Stage.allCases)
    func readingFollowsTheStage(in stage: Stage) {
        let lifecycle = Self.make(stage)
        for wanted in [true, false] {
            let reads = lifecycle.readsInput(wanted: wanted)
            let visible = lifecycle.isReading(wanted: wanted)
            switch stage {
            case .connecting, .connectingClosing, .connectingSecure:
                #expect(!reads, "no reads before the TCP connect completes")
                #expect(visible == wanted)
            case .handshaking:
                #expect(reads, "a handshake reads whatever the owner wants")
                #expect(visible == wanted)
            case .open:
                #expect(reads == wanted && visible == wanted)
            case .inputClosed, .closed:
                #expect(!reads && !visible)
            case .lingering:
                #expect(reads && visible, "a lingering socket drains its input")
            }
        }
    }

    @Test(arguments: Stage.allCases)
    func questions(in stage: Stage) {
        let lifecycle = Self.make(stage)
        #expect(lifecycle.isTCPConnecting == [.connecting, .connectingClosing, .connectingSecure].contains(stage))
        #expect(lifecycle.holdsPlaintext == [.connectingSecure, .handshaking].contains(stage))
        #expect(lifecycle.isClosing == [.connectingClosing, .lingering].contains(stage))
        #expect(lifecycle.sawEndOfInput == (stage == .inputClosed))
        #expect(lifecycle.isClosed == (stage == .closed))
    }

    /// Random event sequences: once closed nothing reopens, and no stage reads input while
    /// the TCP connect is in flight or after the peer's end of input.
    @Test func randomSequencesKeepTheInvariants() {
        var generator = SplitMix(seed: 0x5eed)
        for _ in 0..<2000 {
            var lifecycle = StreamSocketLifecycle(connecting: generator.next() & 1 == 0, secure: generator.next() & 1 == 0)
            var closed = false
            for _ in 0..<12 {
                switch generator.next() % 6 {
                case 0: _ = lifecycle.tcpConnected()
                case 1: _ = lifecycle.handshakeCompleted()
                case 2: _ = [UInt8](repeating: 1, count: 4).withUnsafeBytes { lifecycle.holdPlaintext($0) }
                case 3: _ = lifecycle.endOfInput()
                case 4: _ = lifecycle.startClosing(timer: Self.timer)
                default: _ = lifecycle.close()
                }
                if closed { #expect(lifecycle.isClosed) }
                closed = lifecycle.isClosed
                if lifecycle.isTCPConnecting || lifecycle.sawEndOfInput { #expect(!lifecycle.readsInput(wanted: true)) }
                if lifecycle.isClosed { #expect(lifecycle.pendingPlaintextCount == 0 && lifecycle.closingTimer == nil) }
            }
        }
    }
}

/// A small deterministic generator, so a failing sequence replays.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
