/// `faultline_pin_failure_reports_total` in `GET /metrics`.
extension PinReportBoard {
    /// Writes the family and one sample per series.
    static func render(_ counts: [Count], into out: inout MetricsText) {
        let name = "faultline_pin_failure_reports_total"
        out.family(name, .counter, "Pin failure reports apps sent to POST /pins/reports, by host name (\"other\" past the bound) and format (trustkit or hpkp).")
        for count in counts {
            out.sample(name, [("hostname", count.hostname), ("format", count.format)], count.reports)
        }
    }
}
