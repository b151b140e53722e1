import FaultlineConfig
import FaultlineHTTP

/// The request path and phase changes: which phase rule takes a request, counted phases, and
/// timed phases ended by their timer or, when a request comes first, by that request.
extension ScenarioBoard {
    /// Most phase changes one request may drive while looking for its phase (a counted
    /// phase another loop just filled, a timed one whose timer has not fired yet).
    private static let maxStepsPerRequest = 64
    /// Most phases one change may pass over when the timer fired late (then the timeline
    /// restarts its clock at the phase reached, now); each is a log record.
    private static let maxCatchUp = 100

    /// The first phase rule of a running scenario (in start order) that takes `head`; nil
    /// when none does, at the cost of one atomic load when no scenario runs. A counted phase
    /// counts the request; the request that fills it is its last.
    func route(_ head: HTTPHead, client: String, body: MatchBody? = nil, global: RouteTable, now: UInt64) -> ScenarioHit? {
        guard runningCount.load(ordering: .relaxed) > 0 else { return nil }
        for first in active.withLock({ $0 }) {
            var phase: ActivePhase? = first
            var steps = 0
            while let current = phase, steps < Self.maxStepsPerRequest {
                steps += 1
                if let deadline = current.deadlineNs, now >= deadline {
                    phase = advance(from: current, now: now)
                    continue
                }
                guard let route = current.rules.route(head, client: client, body: body, global: global) else { break }
                if case .requests(let limit) = current.end {
                    let count = current.matched.add(1, ordering: .relaxed).newValue
                    if count > limit {
                        phase = advance(from: current, now: now)
                        continue
                    }
                    if count == limit { _ = advance(from: current, now: now) }
                }
                return ScenarioHit(route: route, decider: current.rules.decider, phase: current)
            }
        }
        return nil
    }

    /// Whether a running scenario's current phase has rules with `json` conditions (the
    /// request body is then read before routing). A phase that begins while a body is read
    /// sees the body only if its predecessor also read bodies.
    func readsBody() -> Bool {
        guard runningCount.load(ordering: .relaxed) > 0 else { return false }
        return active.withLock { $0 }.contains { $0.rules.readsBody }
    }

    /// The phase in effect for a request no phase rule took (the journal notes it): the first
    /// running scenario's; nil when none runs.
    func phaseInEffect(now: UInt64) -> ActivePhase? {
        guard runningCount.load(ordering: .relaxed) > 0, var phase = active.withLock({ $0.first }) else { return nil }
        var steps = 0
        while let deadline = phase.deadlineNs, now >= deadline, steps < Self.maxStepsPerRequest {
            steps += 1
            guard let next = advance(from: phase, now: now) else { return nil }
            phase = next
        }
        return phase
    }

    /// A timed phase's timer: ends it if it is still the one in effect.
    func timerFired(scenario name: String, serial: UInt64) {
        let now = MonotonicClock.nanoseconds()
        let current = contents.withLock { contents in
            contents.slots.first { $0.config.name == name }?.phase
        }
        guard let current, current.serial == serial else { return }
        _ = advance(from: current, now: now)
    }

    /// Ends `phase` if it is still in effect and returns what follows it (nil: the scenario
    /// stopped or finished); when another caller ended it first, returns the scenario's
    /// phase now. A timed phase's successor starts at its deadline, so a late timer does not
    /// stretch the timeline; one that ended by count starts `now`.
    @discardableResult
    func advance(from phase: ActivePhase, now: UInt64) -> ActivePhase? {
        var transitions: [ScenarioTransition] = []
        var scheduled: ActivePhase?
        let next = contents.withLock { contents -> ActivePhase? in
            guard let index = contents.slots.firstIndex(where: { $0.config.name == phase.scenario }) else { return nil }
            guard let current = contents.slots[index].phase else { return nil }
            guard current.serial == phase.serial else { return current }
            let config = contents.slots[index].config
            // Walk the timeline without compiling: only the phase that is in effect now gets
            // its rules built, however many short phases a late timer passed over.
            var phaseIndex = current.index
            var cycle = current.cycle
            var boundary = min(current.deadlineNs ?? now, now)
            var steps = 0
            while true {
                steps += 1
                phaseIndex += 1
                if phaseIndex >= config.phases.count {
                    guard config.loop else {
                        contents.slots[index].state = .finished
                        transitions.append(transition(contents.slots[index], .finished))
                        publish(contents)
                        return nil
                    }
                    phaseIndex = 0
                    cycle += 1
                }
                contents.slots[index].transitions += 1
                let upcoming = config.phases[phaseIndex]
                transitions.append(transition(contents.slots[index], .entered(index: phaseIndex, name: upcoming.name, cycle: cycle)))
                guard case .elapsed(let milliseconds) = upcoming.end else { break }
                let deadline = boundary &+ UInt64(milliseconds) &* 1_000_000
                guard deadline <= now else { break }
                guard steps < Self.maxCatchUp else {
                    // Too far behind: the timeline's clock restarts now rather than replaying more.
                    boundary = now
                    break
                }
                boundary = deadline
            }
            let ending = makePhase(&contents, index, phase: phaseIndex, cycle: cycle, start: boundary)
            contents.slots[index].state = .running(ending)
            publish(contents)
            scheduled = ending
            return ending
        }
        finish(transitions, scheduling: scheduled.map { [$0] } ?? [])
        return next
    }
}
