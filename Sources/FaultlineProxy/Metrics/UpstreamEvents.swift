import FaultlineLog

/// What `GET /metrics` counts per upstream besides its pool: failed connections and TLS
/// handshakes, and pin verdicts. Events of new connections, never of every request.
struct UpstreamEvents: Equatable {
    /// One pin check's outcome for one pin set.
    struct PinVerdict: Hashable, Comparable {
        /// `live` or `candidate`.
        let set: String
        /// `match`, `mismatch`, `report` or `off` (live); `match` or `mismatch` (candidate).
        let verdict: String

        static func < (lhs: PinVerdict, rhs: PinVerdict) -> Bool {
            (lhs.set, lhs.verdict) < (rhs.set, rhs.verdict)
        }
    }

    /// Exchanges that ended with `upstream_connect` (refused, unreachable, no address).
    var connectErrors = 0
    /// Exchanges that ended with `upstream_tls` (a failed handshake).
    var tlsErrors = 0
    /// Pin checks by set and verdict.
    var pinVerdicts: [PinVerdict: Int] = [:]

    /// Counts one handshake's pin check: the live set's verdict, the candidate set's when
    /// one is configured.
    mutating func countPinCheck(live: PinResult, candidatePassed: Bool?) {
        pinVerdicts[PinVerdict(set: "live", verdict: live.rawValue), default: 0] += 1
        if let candidatePassed {
            pinVerdicts[PinVerdict(set: "candidate", verdict: candidatePassed ? "match" : "mismatch"), default: 0] += 1
        }
    }
}
