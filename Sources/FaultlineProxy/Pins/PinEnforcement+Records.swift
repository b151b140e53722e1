import FaultlineIO
import FaultlineLog

extension PinEnforcement.Check {
    /// The verdict an exchange's record carries: `match`, `mismatch` (refused, enforce mode),
    /// `report` (no match, forwarded anyway in report mode) or `off`.
    var verdict: PinResult {
        if refusal != nil { return .mismatch }
        switch observation.livePassed {
        case true?: return .match
        case false?: return .report
        case nil: return .off
        }
    }

    /// The pin records of this handshake: the verdict with which certificate matched which
    /// pin, then one record per warning. Values go through the log's redaction like any other.
    func records(address: SocketAddress, policy: LogPolicy) -> [LogRecord] {
        var record = LogRecord(kind: .pin)
        record.upstream = observation.upstream
        record.serverPort = Int(address.port)
        record.pinResult = verdict
        record.setMessage(verdictLine ?? message, policy: policy)
        for (key, value) in appAttributes {
            record.addAttribute(key, value, policy: policy)
        }
        // Keys are unique in a record: what repeats (matches, the chain) is one array.
        if !observation.matches.isEmpty {
            record.addAttribute("faultline.pin.matched", strings: observation.matches, policy: policy)
        }
        record.addAttribute("faultline.pin.chain", objects: observation.chain.map { entry in
            [("position", "\(entry.position)"), ("subject", entry.subject), ("pin-sha256", "\(entry.pin)")]
        }, policy: policy)
        if let candidate = observation.candidatePassed {
            record.addAttribute("faultline.pin.candidate", candidate ? "pass" : "fail", policy: policy)
            if !observation.candidateMatches.isEmpty {
                record.addAttribute("faultline.pin.candidate_matched", strings: observation.candidateMatches, policy: policy)
            }
        }
        if observation.expired { record.addAttribute("faultline.pin.expired", "true", policy: policy) }
        var records = [record]
        for case .pinWarning(let upstream, let text) in events {
            var warning = LogRecord(kind: .pin)
            warning.upstream = upstream
            warning.pinResult = .warning
            warning.setMessage(text, policy: policy)
            records.append(warning)
        }
        return records
    }

    private var message: String {
        switch verdict {
        case .match: "the verified chain matched a configured pin"
        case .mismatch: "the verified chain matched no configured pin: refused, nothing was forwarded"
        case .report: "the verified chain matched no configured pin: reported, forwarded (report mode)"
        case .off, .warning: "pins are off"
        }
    }
}
