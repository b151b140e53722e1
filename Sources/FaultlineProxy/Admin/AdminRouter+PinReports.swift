import FaultlineConfig
import FaultlineLog
import Foundation

/// `GET /pins` (upstream pin status and the reports section), and pin failure reports from
/// apps: `POST /pins/reports` receives one, `GET /pins/reports` lists the kept ones.
extension AdminRouter {
    /// Reports shown in `GET /pins`.
    static let reportsInPinStatus = 20

    /// `/pins[/reports]`.
    func pins(_ method: String, _ rest: [String], _ request: AdminRequest) -> AdminResponse {
        switch (method, rest.first, rest.count) {
        case ("GET", nil, 0):
            return .json(200, PinStatusWithReports(status: AdminBody.Pins(upstreams: server.pinStatus.report()),
                                                   reports: server.pinReports.overview(last: Self.reportsInPinStatus)))
        case (_, nil, 0):
            return notAllowed(request, "GET")
        case ("POST", "reports"?, 1):
            return receivePinReport(request.body)
        case ("GET", "reports"?, 1):
            return .json(200, server.pinReports.overview())
        case (_, "reports"?, 1):
            return notAllowed(request, "GET, POST")
        default:
            return notFound(request)
        }
    }

    /// Validates, counts, keeps and logs one report; 201 with what was kept.
    private func receivePinReport(_ body: [UInt8]) -> AdminResponse {
        let report: PinReport
        do {
            report = try PinReportParser.parse(body)
        } catch {
            return error.refusal.response
        }
        let snapshot = server.snapshot
        var known: Set<String> = []
        for upstream in snapshot.config.upstreams {
            known.insert(upstream.host.lowercased())
            if let name = upstream.tls?.serverName { known.insert(name.lowercased()) }
        }
        let log = snapshot.log
        let summary = server.pinReports.record(report, known: known, redactor: log.policy.redactor)
        if log.pinEvents { log.write(event: report.record(summary: summary, policy: log.policy)) }
        return .json(201, summary)
    }
}

/// `GET /pins`: whatever the upstream pin status holds, and `reports` beside it.
private struct PinStatusWithReports: Encodable {
    let status: AdminBody.Pins
    let reports: PinReportBoard.Overview

    private enum CodingKeys: String, CodingKey {
        case reports
    }

    func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reports, forKey: .reports)
    }
}
