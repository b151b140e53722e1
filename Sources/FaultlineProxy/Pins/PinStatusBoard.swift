import Foundation
import Synchronization

/// Pin outcomes per upstream across all loops: how many handshakes passed or failed the live
/// set and the candidate set (rotation readiness), and the last chains worth looking at.
final class PinStatusBoard: Sendable {
    /// One certificate of an observed chain.
    struct ChainEntry: Sendable {
        let position: String
        let subject: String
        let pin: String
    }

    /// What one handshake showed.
    struct Observation: Sendable {
        let upstream: String
        let livePassed: Bool?
        let candidatePassed: Bool?
        let expired: Bool
        let chain: [ChainEntry]
        let matches: [String]
        let candidateMatches: [String]
        let date: Date
    }

    private struct Status {
        var handshakes = 0
        var livePassed = 0
        var liveFailed = 0
        var candidatePassed = 0
        var candidateFailed = 0
        var expiredHandshakes = 0
        var lastChain: [ChainEntry] = []
        var lastMatches: [String] = []
        var lastLiveFailure: Observation?
        var lastCandidateFailure: Observation?
    }

    private let statuses = Mutex<[String: Status]>([:])

    /// Counts one handshake's outcome.
    func record(_ observation: Observation) {
        statuses.withLock { all in
            var status = all[observation.upstream] ?? Status()
            status.handshakes += 1
            if observation.expired { status.expiredHandshakes += 1 }
            switch observation.livePassed {
            case true?: status.livePassed += 1
            case false?:
                status.liveFailed += 1
                status.lastLiveFailure = observation
            case nil: break
            }
            switch observation.candidatePassed {
            case true?: status.candidatePassed += 1
            case false?:
                status.candidateFailed += 1
                status.lastCandidateFailure = observation
            case nil: break
            }
            status.lastChain = observation.chain
            status.lastMatches = observation.matches
            all[observation.upstream] = status
        }
    }

    /// Counters and last chains per upstream, as JSON-ready dictionaries.
    func report() -> [String: Any] {
        let all = statuses.withLock { $0 }
        var out: [String: Any] = [:]
        for (name, status) in all {
            var entry: [String: Any] = [
                "handshakes": status.handshakes,
                "live": ["passed": status.livePassed, "failed": status.liveFailed],
                "candidate": [
                    "passed": status.candidatePassed, "failed": status.candidateFailed,
                    // Ready to rotate when the next pin set would have accepted every handshake seen.
                    "ready": status.candidateFailed == 0 && status.candidatePassed > 0,
                ],
                "expired_handshakes": status.expiredHandshakes,
                "last_chain": status.lastChain.map(Self.json),
                "last_matches": status.lastMatches,
            ]
            if let failure = status.lastLiveFailure { entry["last_live_failure"] = Self.json(failure) }
            if let failure = status.lastCandidateFailure { entry["last_candidate_failure"] = Self.json(failure) }
            out[name] = entry
        }
        return out
    }

    private static func json(_ entry: ChainEntry) -> [String: Any] {
        ["position": entry.position, "subject": entry.subject, "pin": "sha256/" + entry.pin]
    }

    private static func json(_ observation: Observation) -> [String: Any] {
        [
            "date": ISO8601DateFormatter().string(from: observation.date),
            "chain": observation.chain.map(json),
            "matches": observation.matches,
            "candidate_matches": observation.candidateMatches,
        ]
    }
}
