import Foundation

extension PinStatusBoard {
    /// One upstream's pin counters and last chains, as `GET /pins` shows them; with the
    /// name the chains were verified for, so that `faultline pins app --chain L=admin` checks
    /// each chain on its own host.
    struct UpstreamReport: Encodable {
        let serverName: String?
        let handshakes: Int
        let live: Tally
        let candidate: CandidateTally
        let expiredHandshakes: Int
        let lastChain: [CertificateReport]
        let lastMatches: [String]
        /// Pins from an app file: the evaluator's last verdicts (absent for listed pins).
        let lastVerdict: String?
        let lastCandidateVerdict: String?
        let lastLiveFailure: FailureReport?
        let lastCandidateFailure: FailureReport?

        enum CodingKeys: String, CodingKey {
            case serverName = "server_name"
            case handshakes
            case live
            case candidate
            case expiredHandshakes = "expired_handshakes"
            case lastChain = "last_chain"
            case lastMatches = "last_matches"
            case lastVerdict = "last_verdict"
            case lastCandidateVerdict = "last_candidate_verdict"
            case lastLiveFailure = "last_live_failure"
            case lastCandidateFailure = "last_candidate_failure"
        }
    }

    /// Handshakes that passed and failed the live pin set.
    struct Tally: Encodable {
        let passed: Int
        let failed: Int
    }

    /// Handshakes that passed and failed the candidate set; `ready` when the next pin set
    /// would have accepted every handshake seen (rotation readiness).
    struct CandidateTally: Encodable {
        let passed: Int
        let failed: Int
        let ready: Bool

        init(passed: Int, failed: Int) {
            self.passed = passed
            self.failed = failed
            ready = failed == 0 && passed > 0
        }
    }

    /// One certificate of a chain, its pin spelled as in the config (`sha256/…`).
    struct CertificateReport: Encodable {
        let position: String
        let subject: String
        let pin: String

        init(_ entry: ChainEntry) {
            position = entry.position
            subject = entry.subject
            pin = "sha256/" + entry.pin
        }
    }

    /// The last handshake that failed a pin set: when, its chain and what matched.
    struct FailureReport: Encodable {
        let date: String
        let chain: [CertificateReport]
        let matches: [String]
        let candidateMatches: [String]
        let verdict: String?
        let candidateVerdict: String?

        enum CodingKeys: String, CodingKey {
            case date
            case chain
            case matches
            case candidateMatches = "candidate_matches"
            case verdict
            case candidateVerdict = "candidate_verdict"
        }

        init(_ observation: Observation) {
            date = ISO8601DateFormatter().string(from: observation.date)
            chain = observation.chain.map(CertificateReport.init)
            matches = observation.matches
            candidateMatches = observation.candidateMatches
            verdict = observation.verdict
            candidateVerdict = observation.candidateVerdict
        }
    }
}
