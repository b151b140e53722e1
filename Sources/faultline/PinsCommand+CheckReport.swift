import FaultlineConfig
import FaultlineTLS
import Foundation

/// The outcome of `pins check` and its text and JSON forms.
struct PinsCheckReport {
    let target: String
    let ca: String?
    let probe: TLSProbeResult
    let served: [Certificate]
    let verified: [Certificate]
    let pins: PinSet
    let now: Date
    let requireCandidate: Bool

    /// Pins are evaluated only on a verified chain: they narrow trust, never replace it.
    var verdict: PinVerdict? {
        probe.verifyError == nil ? pins.evaluate(chain: verified, at: now) : nil
    }

    var warnings: [String] {
        PinWarnings.evaluate(policy: pins.policy, now: now, chain: verified.isEmpty ? served : verified)
    }

    /// `pass`, `pin mismatch`, `candidate mismatch` or `chain not trusted`.
    var outcome: String {
        guard let verdict else { return "chain not trusted" }
        if !verdict.passed { return "pin mismatch" }
        if requireCandidate && verdict.candidate?.passed == false { return "candidate mismatch" }
        return "pass"
    }

    var status: ExitStatus {
        outcome == "pass" ? .ok : .failure
    }

    var lines: [String] {
        var lines = ["\(target) (\(probe.peerAddress)), \(probe.protocolVersion)"]
        let trust = ca.map { "--ca \($0)" } ?? "system trust store"
        if let error = probe.verifyError {
            lines.append("chain NOT trusted (\(trust)): \(error)")
            lines.append("served chain (pins are not checked on an untrusted chain):")
            lines += chainLines(served)
        } else {
            lines.append("chain verified (\(trust)), host name checked:")
            lines += chainLines(verified)
        }
        if let verdict {
            lines += setLines("live pins", pins: pins.policy.live, passed: verdict.passed, matches: verdict.matches)
            if let candidate = verdict.candidate {
                lines += setLines("candidate pins" + (requireCandidate ? "" : " (shadow, does not change the exit status)"),
                                  pins: pins.policy.candidate, passed: candidate.passed, matches: candidate.matches)
            }
        }
        let warnings = self.warnings
        if !warnings.isEmpty {
            lines.append("warnings:")
            lines += warnings.map { "  - \($0)" }
        }
        lines.append("result: \(outcome.uppercased())")
        return lines
    }

    private func chainLines(_ chain: [Certificate]) -> [String] {
        let positions = CertificatePosition.positions(of: chain)
        return chain.enumerated().map { index, certificate in
            "  #\(index) \(positions[index].rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) sha256/\(certificate.spkiPin)  \(certificate.subject)"
        }
    }

    private func setLines(_ title: String, pins: [SPKIPinValue], passed: Bool, matches: [PinMatch]) -> [String] {
        var lines = ["\(title): \(passed ? "PASS" : "FAIL")"]
        for pin in pins {
            let found = matches.filter { $0.pin == pin }
            if found.isEmpty {
                lines.append("  \(pin) matches nothing in the chain")
            }
            for match in found {
                lines.append("  \(pin) matched #\(match.index) \(match.position.rawValue) \(match.subject)")
            }
        }
        return lines
    }

    var json: [String: Any] {
        let chain = probe.verifyError == nil ? verified : served
        let positions = CertificatePosition.positions(of: chain)
        var object: [String: Any] = [
            "target": target, "peer": probe.peerAddress, "protocol": probe.protocolVersion,
            "verified": probe.verifyError == nil, "verify_error": probe.verifyError ?? NSNull(),
            "chain": chain.enumerated().map { PinsCommandSupport.json($1, index: $0, position: positions[$0], now: now) },
            "result": outcome, "warnings": warnings,
        ]
        if let verdict {
            object["live"] = setJSON(pins: pins.policy.live, passed: verdict.passed, matches: verdict.matches)
            object["candidate"] = verdict.candidate.map {
                setJSON(pins: pins.policy.candidate, passed: $0.passed, matches: $0.matches)
            } ?? NSNull()
        }
        return object
    }

    private func setJSON(pins: [SPKIPinValue], passed: Bool, matches: [PinMatch]) -> [String: Any] {
        [
            "passed": passed,
            "pins": pins.map(\.description),
            "matches": matches.map {
                ["pin": $0.pin.description, "index": $0.index, "position": $0.position.rawValue, "subject": $0.subject] as [String: Any]
            },
            "unmatched": pins.filter { pin in !matches.contains { $0.pin == pin } }.map(\.description),
        ]
    }
}
