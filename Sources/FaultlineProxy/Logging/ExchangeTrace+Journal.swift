import FaultlineLog

/// The end of an exchange's record: the log line or HAR entry, the dashboard's feed, and the journal entries.
extension ExchangeTrace {
    /// Builds the record once and hands it to the log (when it wants one), the dashboard's
    /// live feed (when an admin listener exists), the global journal and the session's journal. `now` is the monotonic end time.
    func finish(client: (ip: String, port: Int?), now: UInt64, state: ProxyServerState) {
        var record = self.record(policy: log.policy, client: client, now: now)
        record.session = session?.id
        record.sessionUnknown = sessionUnknown
        state.live.publish(record, now: now)
        let global = state.journal
        guard global.isOn || session != nil else {
            if logged { log.write(exchange: record) }
            return
        }
        // Not an optional: unwrapping one copies the entry, a retain of each of its strings.
        // A constant: the global journal's `append` takes it as its last use, with no copy.
        let entry = JournalEntry(record: record, startNs: start, session: session?.id, sessionUnknown: sessionUnknown,
                                 connectionRequest: attempt, connection: connection,
                                 scenario: scenarioPhase.map {
                                     JournalEntry.ScenarioPhaseMark(name: $0.scenario, phase: $0.index, phaseName: $0.name,
                                                                    cycle: $0.cycle)
                                 })
        // The log takes the record last: it is consumed there, not copied. It is written
        // before the journals take the entry, as it always was.
        if logged { log.write(exchange: record) }
        if let journal = session?.journal { journal.append(copy entry) }
        // Moved into the global journal: the session's, when there is one, took a copy.
        global.append(entry)
    }
}
