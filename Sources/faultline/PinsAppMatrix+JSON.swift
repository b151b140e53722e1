import FaultlineAppPins
import Foundation

extension PinsAppMatrix {
    /// The stable JSON object of `pins app --format json` (documented in docs/pinning.md).
    var json: [String: Any] {
        [
            "at": atText,
            "build": build.rawValue,
            "apps": subjects.map { subject -> [String: Any] in
                ["label": subject.label, "platform": subject.platformKey, "file": subject.file, "warnings": subject.warnings]
            },
            "hosts": hosts,
            "chains": chains.map { chain -> [String: Any] in
                [
                    "label": chain.label, "source": chain.source, "kind": chain.kind.rawValue,
                    "host": chain.host ?? NSNull(), "trust": chain.trust,
                    "served": chain.chain.served.map(Self.json), "verified": chain.chain.verified.map(Self.json),
                ]
            },
            "cells": cells.map { cell -> [String: Any] in
                [
                    "app": subjects[cell.subject].label, "host": cell.host, "chain": chains[cell.chain].label,
                    "outcome": cell.verdict.outcome.rawValue, "label": cell.verdict.outcome.label,
                    "blocks": cell.verdict.outcome.blocks, "reason": cell.verdict.reason,
                    "entry": cell.verdict.entry ?? NSNull(), "change": cell.change ?? NSNull(),
                ]
            },
            "failures": failures.count,
            "report_only": cells.filter { $0.verdict.outcome == .reportOnlyFailure }.count,
            "result": failures.isEmpty ? "pass" : "fail",
        ]
    }

    private static func json(_ certificate: AppChainCertificate) -> [String: Any] {
        ["position": certificate.position.rawValue, "subject": certificate.subject, "pin": certificate.pin.description]
    }
}
