/// An entry's HAR `timings`, in whole microseconds so that they add up exactly to the
/// entry's `time`: connect (TLS included, as HAR requires) + send (0) + wait + receive
/// = total. Measurements that disagree (a first byte "before" the connect finished, a
/// total shorter than the first byte) are clamped into that order rather than producing
/// negative or overlapping phases that HAR viewers reject.
struct HARTimings {
    /// The whole exchange (`time`).
    let total: Int64
    /// Upstream connect including TLS; nil when no new connection was made (-1).
    let connect: Int64?
    /// Upstream TLS handshake, part of `connect`; nil when none (-1).
    let ssl: Int64?
    /// From the request sent to the response's first byte.
    let wait: Int64
    /// From the first byte to the end.
    let receive: Int64

    init(_ record: LogRecord) {
        let total = Self.micros(record.totalMs) ?? 0
        // HAR counts ssl inside connect, so a handshake alone still makes a connect phase.
        var connect: Int64?
        if record.connectMs != nil || record.tlsMs != nil {
            connect = min(total, (Self.micros(record.connectMs) ?? 0) + (Self.micros(record.tlsMs) ?? 0))
        }
        let setup = connect ?? 0
        // firstByteMs counts from the start of the exchange, connect and TLS included.
        let firstByte = min(total, max(setup, Self.micros(record.firstByteMs) ?? total))
        self.total = total
        self.connect = connect
        ssl = Self.micros(record.tlsMs).map { min($0, setup) }
        wait = firstByte - setup
        receive = total - firstByte
    }

    /// `milliseconds` as whole microseconds, never negative; nil when absent or not finite.
    private static func micros(_ milliseconds: Double?) -> Int64? {
        guard let milliseconds, milliseconds.isFinite else { return nil }
        return Int64((max(0, min(milliseconds, 1e12)) * 1000).rounded())
    }
}
