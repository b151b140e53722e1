import FaultlineConfig

/// The config file's scenarios on the global board, kept in step with each loaded file.
extension ScenarioBoard {
    /// Makes the file's scenarios `scenarios` (after a load or reload). One the new file
    /// defines exactly as before is left alone, running timeline included; a changed or new
    /// one replaces it and starts at its first phase when it says `"start": true` (else it is
    /// stopped); one the file no longer has is stopped and forgotten. A scenario of the same
    /// name defined through the admin API wins over the file's, as runtime rules do.
    func syncFile(_ scenarios: [ScenarioConfig], now: UInt64) {
        var transitions: [ScenarioTransition] = []
        var started: [ActivePhase] = []
        contents.withLock { contents in
            let names = Set(scenarios.map(\.name))
            for index in contents.slots.indices.reversed() where contents.slots[index].origin == .file {
                guard !names.contains(contents.slots[index].config.name) else { continue }
                stopLocked(&contents, index, &transitions)
                contents.slots.remove(at: index)
            }
            for scenario in scenarios {
                let index: Int
                if let existing = contents.slots.firstIndex(where: { $0.config.name == scenario.name }) {
                    guard contents.slots[existing].origin == .file, contents.slots[existing].config != scenario else { continue }
                    stopLocked(&contents, existing, &transitions)
                    contents.slots[existing] = ScenarioSlot(config: scenario, origin: .file)
                    index = existing
                } else {
                    contents.slots.append(ScenarioSlot(config: scenario, origin: .file))
                    index = contents.slots.count - 1
                }
                if scenario.start { started.append(startLocked(&contents, index, now: now, &transitions)) }
            }
            publish(contents)
        }
        finish(transitions, scheduling: started)
    }
}
