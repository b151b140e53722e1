/// Conversions between `Duration` and the millisecond numbers of the admin API.
extension Duration {
    /// Whole milliseconds, rounded toward zero (the config format takes integers).
    var wholeMilliseconds: Int {
        let parts = components
        return Int(clamping: parts.seconds) &* 1000 &+ Int(parts.attoseconds / 1_000_000_000_000_000)
    }

    /// Whole seconds, rounded up, so a TTL is never shorter than asked.
    var wholeSecondsRoundedUp: Int {
        let parts = components
        return Int(clamping: parts.seconds) + (parts.attoseconds > 0 ? 1 : 0)
    }

    /// A duration from the journal's fractional milliseconds (exact to the microsecond).
    static func fractionalMilliseconds(_ milliseconds: Double) -> Duration {
        .microseconds(Int64((milliseconds * 1000).rounded()))
    }
}
