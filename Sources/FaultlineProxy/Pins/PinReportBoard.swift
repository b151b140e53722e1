import FaultlineLog
import FaultlineSync
import Foundation

/// The pin failure reports apps sent to `POST /pins/reports`, across reloads: counts by
/// host name label and format (for `/metrics` and `GET /pins`) and the last `capacity`
/// reports, redacted (for `GET /pins/reports`).
///
/// Labels are bounded: a host name the configuration knows (an upstream's host or TLS server
/// name) is its own label; other names get one of `maxUnknownHostnames` labels, first come,
/// and every further name (and anything that is not a host name) counts as `other`.
final class PinReportBoard: Sendable {
    /// Reports kept for `GET /pins/reports`.
    static let capacity = 100
    /// Host names outside the configuration that get a label of their own.
    static let maxUnknownHostnames = 16
    /// The label of every host name past the bound.
    static let otherLabel = "other"

    /// One series of `faultline_pin_failure_reports_total`.
    struct Count: Sendable, Hashable, Encodable {
        let hostname: String
        let format: String
        var reports: Int
    }

    private struct State {
        var total = 0
        var counts: [SeriesKey: Int] = [:]
        var unknownLabels: Set<String> = []
        var kept: [PinReportSummary] = []
    }

    private struct SeriesKey: Hashable {
        let hostname: String
        let format: String
    }

    private let state = TracedMutex(State())

    /// Counts and keeps `report`; `known` are the configuration's host names. Returns what
    /// was kept (redacted by `redactor`).
    func record(_ report: PinReport, known: Set<String>, redactor: Redactor, now: Date = Date()) -> PinReportSummary {
        state.withLock { state in
            let label = Self.label(report.hostname, known: known, unknown: &state.unknownLabels)
            state.total += 1
            state.counts[SeriesKey(hostname: label, format: report.source.format), default: 0] += 1
            let summary = PinReportSummary(report, id: state.total, label: label, received: now, redactor: redactor)
            state.kept.append(summary)
            if state.kept.count > Self.capacity { state.kept.removeFirst(state.kept.count - Self.capacity) }
            return summary
        }
    }

    /// Every series, by label then format.
    func counts() -> [Count] {
        state.withLock { state in
            state.counts.map { Count(hostname: $0.key.hostname, format: $0.key.format, reports: $0.value) }
                .sorted { ($0.hostname, $0.format) < ($1.hostname, $1.format) }
        }
    }

    /// Reports received since start, the series, and the last `limit` reports kept, newest first.
    func overview(last limit: Int = capacity) -> Overview {
        let series = counts()
        return state.withLock { state in
            Overview(total: state.total, kept: state.kept.count, counts: series, reports: Array(state.kept.suffix(limit).reversed()))
        }
    }

    /// The label `hostname` counts under.
    private static func label(_ hostname: String, known: Set<String>, unknown: inout Set<String>) -> String {
        var name = hostname.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if known.contains(name) { return name }
        guard isHostName(name) else { return otherLabel }
        if unknown.contains(name) { return name }
        guard unknown.count < maxUnknownHostnames else { return otherLabel }
        unknown.insert(name)
        return name
    }

    /// Dot-separated labels of letters, digits, `-` and `_` (1–63 bytes each, 253 in all),
    /// or an IP literal: nothing that could carry a query string or a secret into a label.
    static func isHostName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253, text != otherLabel else { return false }
        if text.hasPrefix("[") && text.hasSuffix("]") {
            return text.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count)
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        }
    }
}
