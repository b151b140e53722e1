public import FoundationEssentials

/// Evaluates a pin policy (live pins, mode, candidate pins, expiry) against a verified
/// chain. Pure: no I/O, time comes in as an argument. Pins only narrow an already trusted
/// chain, so the caller verifies the chain (trust and host name) first.
public struct PinSet: Sendable, Equatable {
    /// The pins and their rules.
    public let policy: PinPolicy

    /// Wraps `policy`.
    public init(policy: PinPolicy) {
        self.policy = policy
    }

    /// A set of `live` pins with the given rules; an empty `candidate` means none.
    public init(live: [SPKIPinValue], mode: PinMode = .enforce, candidate: [SPKIPinValue] = [],
                expires: Date? = nil, onExpiry: PinExpiryBehaviour = .unpinned) {
        policy = PinPolicy(live: live, mode: mode, candidate: candidate, expires: expires, onExpiry: onExpiry)
    }

    /// Checks `chain` (verified, leaf first) at `now`.
    public func evaluate(chain: [Certificate], at now: Date) -> PinVerdict {
        evaluate(observed: PinObservation.of(chain), at: now)
    }

    /// Checks a verified chain already read as observations (leaf first) at `now`: for a
    /// chain known by its pins and subjects only, such as an app's chain in `pins app`.
    public func evaluate(observed: [PinObservation], at now: Date) -> PinVerdict {
        let matches = PinSet.matches(of: policy.live, in: observed)
        let expired = policy.isExpired(at: now)
        let effective = policy.effectiveMode(at: now)
        let matched = !matches.isEmpty
        let candidate: PinCandidateVerdict?
        if policy.candidate.isEmpty {
            candidate = nil
        } else {
            let candidateMatches = PinSet.matches(of: policy.candidate, in: observed)
            candidate = PinCandidateVerdict(passed: !candidateMatches.isEmpty, matches: candidateMatches)
        }
        return PinVerdict(mode: policy.mode, effectiveMode: effective, matched: matched,
                          passed: matched || effective == .off, matches: matches, observed: observed,
                          expired: expired, candidate: candidate)
    }

    /// Every (pin, certificate) pair where the certificate's key has that pin, in pin order.
    public static func matches(of pins: [SPKIPinValue], in observed: [PinObservation]) -> [PinMatch] {
        var matches: [PinMatch] = []
        for pin in pins {
            for certificate in observed where certificate.pin == pin {
                matches.append(PinMatch(pin: pin, index: certificate.index, position: certificate.position,
                                        subject: certificate.subject))
            }
        }
        return matches
    }
}
