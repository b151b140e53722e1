extension ConfigLoader {
    /// The keys of the `sessions` block, in the order messages list them.
    static let sessionsKeys = ["max", "journal_capacity", "default_ttl_s"]
    /// The keys of the `journal` block.
    static let journalKeys = ["capacity"]

    /// The `sessions` block, or the defaults when it is absent (or after reporting).
    static func readSessions(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> SessionsConfig {
        let defaults = SessionsConfig()
        guard let object = top.object("sessions", known: sessionsKeys, &diagnostics) else { return defaults }
        return SessionsConfig(
            max: object.int("max", in: 1...100_000, default: defaults.max, &diagnostics),
            journalCapacity: object.int("journal_capacity", in: 0...100_000, default: defaults.journalCapacity, &diagnostics),
            defaultTTLSeconds: object.int("default_ttl_s", in: SessionsConfig.ttlRange, default: defaults.defaultTTLSeconds,
                                          &diagnostics))
    }

    /// The `journal` block, or the defaults when it is absent (or after reporting).
    static func readJournal(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> JournalConfig {
        let defaults = JournalConfig()
        guard let object = top.object("journal", known: journalKeys, &diagnostics) else { return defaults }
        return JournalConfig(capacity: object.int("capacity", in: 0...1_000_000, default: defaults.capacity, &diagnostics))
    }
}
