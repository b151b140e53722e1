#if canImport(Glibc)
import Glibc
#endif

extension FaultDecider {
    /// The action of `spec` for the `count`-th matched request, or nil when a condition
    /// does not hold. Cheap counting conditions first, then the window, the random draw,
    /// the concurrency cap, and the sequence last (so a step is only used by a request
    /// that would otherwise fire).
    func resolve(_ spec: FaultSpec, _ state: FaultCounters, count: Int) -> FaultAction? {
        let when = spec.when
        if let firstN = when.firstN, count > firstN { return nil }
        if let afterN = when.afterN, count <= afterN { return nil }
        if let everyNth = when.everyNth, count % everyNth != 0 { return nil }
        if let window = when.activeForMs {
            let start = state.windowStart.load(ordering: .relaxed)
            let now = clock()
            if now >= start, now - start >= UInt64(window) { return nil }
        }
        if let probability = when.probability, !(state.nextUnit() < probability) { return nil }
        guard state.acquire(cap: when.maxActive) else { return nil }
        var step = FaultSequenceStep.fire
        if let sequence = when.sequence {
            let position = state.step.wrappingAdd(1, ordering: .relaxed).oldValue
            step = position < sequence.count ? sequence[position] : .pass
        }
        if step == .pass {
            state.release()
            return nil
        }
        state.fired.wrappingAdd(1, ordering: .relaxed)
        return action(spec.kind, step: step, state)
    }

    private func action(_ kind: FaultKind, step: FaultSequenceStep, _ state: FaultCounters) -> FaultAction {
        switch kind {
        case .delay(let delay):
            return .delay(ms: delay.distribution.sample(state.nextRandom))
        case .status(let status):
            if case .status(let code) = step { return .status(status.with(code: code)) }
            return .status(status)
        case .reset(let reset):
            return .reset(afterBytes: reset.afterBytes, errorCode: reset.errorCode)
        case .close(let close):
            return .close(afterBytes: close.afterBytes)
        case .hang(let hang):
            return .hang(hang)
        case .throttle(let throttle):
            return .throttle(throttle)
        case .truncate(let truncate):
            return .truncate(keepBytes: truncate.keepBytes)
        case .corrupt(let corrupt):
            return .corrupt(corrupt.mode)
        case .rewrite(let rewrite):
            return .rewrite(rewrite)
        case .rstStream(let rstStream):
            return .rstStream(rstStream.errorCode)
        case .goAway(let goAway):
            return .goAway(goAway)
        case .profile(let profile):
            let lost = profile.lossRate >= 1 || (profile.lossRate > 0 && state.nextUnit() < profile.lossRate)
            return .profile(profile, lost: lost)
        }
    }

    /// Milliseconds of CLOCK_MONOTONIC: the production clock for `init(seed:routes:clock:)`.
    public static let monotonicMilliseconds: @Sendable () -> UInt64 = {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1000 &+ UInt64(time.tv_nsec / 1_000_000)
    }
}
