import FaultlineSync
import Foundation

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
        /// The name the chain was verified for (the upstream's `server_name`).
        var serverName: String?
        /// Pins from an app file: the verdict line of the live and of the candidate app.
        var verdict: String?
        var candidateVerdict: String?
    }

    private struct Status {
        var serverName: String?
        var handshakes = 0
        var livePassed = 0
        var liveFailed = 0
        var candidatePassed = 0
        var candidateFailed = 0
        var expiredHandshakes = 0
        var lastChain: [ChainEntry] = []
        var lastMatches: [String] = []
        var lastVerdict: String?
        var lastCandidateVerdict: String?
        var lastLiveFailure: Observation?
        var lastCandidateFailure: Observation?
    }

    private let statuses = TracedMutex<[String: Status]>([:])

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
            status.serverName = observation.serverName
            status.lastChain = observation.chain
            status.lastMatches = observation.matches
            status.lastVerdict = observation.verdict
            status.lastCandidateVerdict = observation.candidateVerdict
            all[observation.upstream] = status
        }
    }

    /// The verdict line of `upstream`'s live app pins on the last chain it showed; nil before
    /// its first handshake, or without an app pin file.
    func lastVerdict(upstream: String) -> String? {
        statuses.withLock { $0[upstream]?.lastVerdict }
    }

    /// Counters and last chains per upstream.
    func report() -> [String: UpstreamReport] {
        statuses.withLock { $0 }.mapValues { status in
            UpstreamReport(
                serverName: status.serverName,
                handshakes: status.handshakes,
                live: Tally(passed: status.livePassed, failed: status.liveFailed),
                candidate: CandidateTally(passed: status.candidatePassed, failed: status.candidateFailed),
                expiredHandshakes: status.expiredHandshakes,
                lastChain: status.lastChain.map(CertificateReport.init),
                lastMatches: status.lastMatches,
                lastVerdict: status.lastVerdict,
                lastCandidateVerdict: status.lastCandidateVerdict,
                lastLiveFailure: status.lastLiveFailure.map(FailureReport.init),
                lastCandidateFailure: status.lastCandidateFailure.map(FailureReport.init))
        }
    }
}
