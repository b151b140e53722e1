import FaultlineConfig
import FaultlineHTTP

/// What the faults that fired on one request ask of its exchange, gathered from the
/// decider's actions in composition order (request, response head, first byte, body).
struct FaultPlan: Equatable {
    /// A fault that ends the exchange without (or instead of) the upstream's answer.
    enum Terminal: Equatable {
        /// Answer with this status, synthesized.
        case status(StatusFault)
        /// RST before any response byte.
        case reset
        /// FIN before any response byte (an empty reply).
        case close
        /// Say nothing: until the client gives up, or for `ms` and then close or reset.
        case hang(HangFault)
        /// Bytes that are not HTTP, then close.
        case garbage
        /// A response head, then broken chunk framing, then close.
        case badChunkFraming
        /// Refuse the request on its head, before the upstream is contacted: RST_STREAM
        /// with this code on HTTP/2, RST on HTTP/1.
        case refuseStream(HTTP2ErrorCode)
        /// Close the client connection before any response: GOAWAY with this code on
        /// HTTP/2, FIN (an empty reply) on HTTP/1.
        case goAway(HTTP2ErrorCode)
    }

    /// Names of the faults that fired, for the marker header and logs.
    var names: [String] = []
    var terminal: Terminal?
    var requestDelayMs = 0
    var firstByteDelayMs = 0
    var replaceStatus: StatusFault?
    var rewrite: RewriteFault?
    var downBytesPerSecond = 0
    var upBytesPerSecond = 0
    var chunkBytes = 1024
    /// After this many body bytes the connection ends: cut (close or reset) or truncated.
    var cutAfterBytes: Int?
    var cutWithReset = false
    var corruptJSON = false
    /// The RST_STREAM code of a reset (before the response or after N bytes) on HTTP/2.
    var resetErrorCode = ResetFault.defaultErrorCode
    /// A graceful goaway fired: the response passes, then the client connection closes.
    var gracefulGoAway = false

    /// Whether any fault applies.
    var isEmpty: Bool { names.isEmpty }

    init() {}

    init(_ decision: FaultDecision, routeName: String) {
        for fired in decision.fired {
            names.append("\(routeName)/\(fired.name)")
            apply(fired.action, phase: fired.phase)
        }
    }

    private mutating func apply(_ action: FaultAction, phase: FaultPhase) {
        switch action {
        case .delay(let ms):
            if phase == .firstByte { firstByteDelayMs += ms } else { requestDelayMs += ms }
        case .status(let status):
            if status.upstream { replaceStatus = status } else { terminal = .status(status) }
        case .reset(let after, let code):
            resetErrorCode = code
            if after == 0 { terminal = .reset } else { cut(after: after, reset: true) }
        case .close(let after):
            if after == 0 { terminal = .close } else { cut(after: after, reset: false) }
        case .hang(let hang):
            terminal = .hang(hang)
        case .throttle(let throttle):
            if throttle.downBytesPerSecond > 0 { downBytesPerSecond = throttle.downBytesPerSecond }
            if throttle.upBytesPerSecond > 0 { upBytesPerSecond = throttle.upBytesPerSecond }
            chunkBytes = max(1, throttle.chunkBytes)
        case .truncate(let keep):
            cut(after: keep, reset: false)
        case .corrupt(let mode):
            switch mode {
            case .malformedJSON: corruptJSON = true
            case .garbageThenClose: terminal = .garbage
            case .badChunkFraming: terminal = .badChunkFraming
            }
        case .rewrite(let rewrite):
            self.rewrite = rewrite
        case .rstStream(let code):
            terminal = .refuseStream(code)
        case .goAway(let goAway):
            switch goAway {
            case .graceful: gracefulGoAway = true
            case .immediate(let code): terminal = .goAway(code)
            }
        case .profile(let profile, let lost):
            if lost {
                // A lost request on a lossy link: nothing comes back; the client times out
                // (a total-loss profile) or sees its connection reset.
                terminal = profile.lossRate >= 1 ? .hang(HangFault(ms: nil)) : .reset
                return
            }
            requestDelayMs += profile.latencyMs
            firstByteDelayMs += profile.latencyMs
            if profile.downBps > 0 { downBytesPerSecond = profile.downBps }
            if profile.upBps > 0 { upBytesPerSecond = profile.upBps }
        }
    }

    private mutating func cut(after bytes: Int, reset: Bool) {
        if let existing = cutAfterBytes, existing <= bytes { return }
        cutAfterBytes = bytes
        cutWithReset = reset
    }
}
