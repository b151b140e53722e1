import FaultlineConfig
import FaultlineSync
import Synchronization

/// The scenarios of one place: the process (global) or one session. Holds their definitions
/// and timelines, and publishes the phases in effect as an immutable list that exchanges read
/// (`ScenarioBoard+Routing`). Changes (define, start, stop, phase changes) happen under one
/// lock and are reported after it is released.
final class ScenarioBoard: Sendable {
    /// The session whose scenarios these are; nil for the global board.
    let session: String?
    let reporter: ScenarioReporter
    /// The seed of the phases' random streams.
    let seed: UInt64

    struct Contents {
        var slots: [ScenarioSlot] = []
        /// The running configuration: the upstreams rules are compiled against.
        var config: ProxyConfig
        var nextSerial: UInt64 = 1
    }

    let contents: TracedMutex<Contents>
    /// The phases in effect, in the order their scenarios started (the first that takes a request wins).
    let active = TracedMutex<[ActivePhase]>([])
    /// How many scenarios run: 0 spares a request every lock.
    let runningCount = Atomic<Int>(0)

    init(session: String?, seed: UInt64, config: ProxyConfig, reporter: ScenarioReporter) {
        self.session = session
        self.seed = seed
        self.reporter = reporter
        contents = TracedMutex(Contents(config: config))
    }

    /// The scenarios, in definition order, as they stand now.
    var slots: [ScenarioSlot] { contents.withLock { $0.slots } }

    /// Defines (or replaces a stopped or finished) scenario through the admin API; true when
    /// it is new. Refused when one of that name runs, comes from the config file, or the
    /// board is full. With `config.start` it starts at once.
    func define(_ config: ScenarioConfig, now: UInt64) throws(AdminRefusal) -> Bool {
        var transitions: [ScenarioTransition] = []
        var started: ActivePhase?
        let created = try contents.withLock { contents throws(AdminRefusal) -> Bool in
            var created = true
            if let index = contents.slots.firstIndex(where: { $0.config.name == config.name }) {
                let slot = contents.slots[index]
                guard slot.origin == .admin else {
                    throw AdminRefusal(409, "scenario \(JSONText.quoted(config.name)) comes from the config file; change it there (and reload) or pick another name", field: "scenario.name")
                }
                guard slot.phase == nil else {
                    throw AdminRefusal(409, "scenario \(JSONText.quoted(config.name)) is running; stop it (POST /scenarios/\(config.name)/stop) before defining it again", field: "scenario.name")
                }
                contents.slots[index] = ScenarioSlot(config: config, origin: .admin)
                created = false
            } else {
                guard contents.slots.count < ConfigLoader.maxScenarios else {
                    throw AdminRefusal(409, "at most \(ConfigLoader.maxScenarios) scenarios may be defined here; delete one first")
                }
                contents.slots.append(ScenarioSlot(config: config, origin: .admin))
            }
            if config.start, let index = contents.slots.indices.last(where: { contents.slots[$0].config.name == config.name }) {
                started = startLocked(&contents, index, now: now, &transitions)
                publish(contents)
            }
            return created
        }
        finish(transitions, scheduling: started.map { [$0] } ?? [])
        return created
    }

    /// Starts `name` at its first phase (from the start again when it runs already).
    func start(_ name: String, now: UInt64) throws(AdminRefusal) {
        var transitions: [ScenarioTransition] = []
        let phase = try contents.withLock { contents throws(AdminRefusal) -> ActivePhase? in
            let index = try Self.index(of: name, in: contents)
            let phase = startLocked(&contents, index, now: now, &transitions)
            publish(contents)
            return phase
        }
        finish(transitions, scheduling: phase.map { [$0] } ?? [])
    }

    /// Stops `name`: its rules leave effect at once; a stopped one stays stopped.
    func stop(_ name: String) throws(AdminRefusal) {
        var transitions: [ScenarioTransition] = []
        try contents.withLock { contents throws(AdminRefusal) in
            let index = try Self.index(of: name, in: contents)
            stopLocked(&contents, index, &transitions)
            publish(contents)
        }
        finish(transitions, scheduling: [])
    }

    /// Forgets `name` (stopping it first). The config file's cannot be deleted.
    func remove(_ name: String) throws(AdminRefusal) {
        var transitions: [ScenarioTransition] = []
        try contents.withLock { contents throws(AdminRefusal) in
            let index = try Self.index(of: name, in: contents)
            guard contents.slots[index].origin == .admin else {
                throw AdminRefusal(409, "scenario \(JSONText.quoted(name)) comes from the config file; remove it there (and reload), or stop it")
            }
            stopLocked(&contents, index, &transitions)
            contents.slots.remove(at: index)
            publish(contents)
        }
        finish(transitions, scheduling: [])
    }

    /// Stops every scenario (the session ends).
    func stopAll() {
        var transitions: [ScenarioTransition] = []
        contents.withLock { contents in
            for index in contents.slots.indices { stopLocked(&contents, index, &transitions) }
            publish(contents)
        }
        finish(transitions, scheduling: [])
    }

    /// Compiles the running phases against a new configuration (a reload or rule change):
    /// their start, count and rule counters carry over.
    func recompile(config: ProxyConfig) {
        contents.withLock { contents in
            let changed = contents.config.upstreams != config.upstreams
            contents.config = config
            guard changed else { return }
            for index in contents.slots.indices {
                guard let old = contents.slots[index].phase else { continue }
                let phase = contents.slots[index].config.phases[old.index]
                let rules = SessionRuleSet(rules: phase.rules, config: config, seed: seed, previous: old.rules)
                contents.slots[index].state = .running(ActivePhase(
                    scenario: old.scenario, index: old.index, phase: phase, cycle: old.cycle, serial: old.serial,
                    startedNs: old.startedNs, rules: rules, matched: old.matched.load(ordering: .relaxed)))
            }
            publish(contents)
        }
    }

    // MARK: Under the lock

    static func index(of name: String, in contents: Contents) throws(AdminRefusal) -> Int {
        guard let index = contents.slots.firstIndex(where: { $0.config.name == name }) else {
            let known = contents.slots.map(\.config.name)
            throw AdminRefusal(404, "no scenario \(JSONText.quoted(name)) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
                               field: "name")
        }
        return index
    }

    /// Starts slot `index` at phase 0 (its first phase change); returns the phase.
    func startLocked(_ contents: inout Contents, _ index: Int, now: UInt64,
                     _ transitions: inout [ScenarioTransition]) -> ActivePhase {
        let phase = makePhase(&contents, index, phase: 0, cycle: 0, start: now)
        contents.slots[index].state = .running(phase)
        contents.slots[index].startedNs = now
        contents.slots[index].transitions += 1
        transitions.append(transition(contents.slots[index], .entered(index: 0, name: phase.name, cycle: 0)))
        return phase
    }

    func stopLocked(_ contents: inout Contents, _ index: Int, _ transitions: inout [ScenarioTransition]) {
        guard contents.slots[index].phase != nil else {
            contents.slots[index].state = .stopped
            return
        }
        contents.slots[index].state = .stopped
        transitions.append(transition(contents.slots[index], .stopped))
    }

    func makePhase(_ contents: inout Contents, _ slot: Int, phase index: Int, cycle: Int, start: UInt64) -> ActivePhase {
        let config = contents.slots[slot].config
        let phase = config.phases[index]
        let serial = contents.nextSerial
        contents.nextSerial &+= 1
        let rules = SessionRuleSet(rules: phase.rules, config: contents.config, seed: seed, previous: nil)
        return ActivePhase(scenario: config.name, index: index, phase: phase, cycle: cycle, serial: serial, startedNs: start,
                           rules: rules)
    }

    func transition(_ slot: ScenarioSlot, _ change: ScenarioTransition.Change) -> ScenarioTransition {
        ScenarioTransition(scenario: slot.config.name, session: session, phaseCount: slot.config.phases.count, change: change)
    }

    /// Makes the running phases what exchanges see.
    func publish(_ contents: Contents) {
        let running = contents.slots.filter { $0.phase != nil }.sorted { $0.startedNs < $1.startedNs }.compactMap(\.phase)
        active.withLock { $0 = running }
        runningCount.store(running.count, ordering: .relaxed)
    }

    /// Reports `transitions` and sets the timers of the timed phases among `phases`.
    func finish(_ transitions: [ScenarioTransition], scheduling phases: [ActivePhase]) {
        reporter.report(transitions)
        for phase in phases {
            guard let deadline = phase.deadlineNs else { continue }
            let name = phase.scenario
            let serial = phase.serial
            reporter.schedule(at: deadline) { [weak self] in
                self?.timerFired(scenario: name, serial: serial)
            }
        }
    }
}
