extension PinReportBoard {
    /// The `reports` section of `GET /pins`, and the answer of `GET /pins/reports`.
    struct Overview: Sendable, Encodable {
        /// Reports received since start.
        let total: Int
        /// Reports kept now (at most `PinReportBoard.capacity`).
        let kept: Int
        /// Reports by host name label and format, as `/metrics` counts them.
        let counts: [Count]
        /// The last reports, newest first.
        let reports: [PinReportSummary]
    }
}
