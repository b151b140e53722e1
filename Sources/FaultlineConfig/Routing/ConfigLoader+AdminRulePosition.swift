extension ConfigLoader {
    /// Where a rule added at runtime goes in the match order.
    public enum RulePosition: String, Sendable, Equatable, CaseIterable {
        /// Before every other rule, so it wins over the file's routes (the default).
        case start
        /// After every other rule: it only takes requests no other rule matches.
        case end
    }
}
