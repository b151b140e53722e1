import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineConfig
import FaultlineHTTP

/// A rule as the admin API renders it parses back to the same rule (what `rules list`
/// shows can be sent back with `PUT`).
@Suite("Admin rule JSON round trip")
struct AdminRuleRoundTripTests {
    private static let upstreams = [UpstreamConfig(name: "demo", host: "127.0.0.1", port: 8081)]

    @Test(arguments: [
        FaultKind.rstStream(RSTStreamFault()), .rstStream(RSTStreamFault(errorCode: .cancel)),
        .rstStream(RSTStreamFault(errorCode: HTTP2ErrorCode(rawValue: 0xfff))),
        .reset(ResetFault()), .reset(ResetFault(afterBytes: 100, errorCode: .noError)),
        .goAway(.graceful), .goAway(.immediate(.internalError)), .goAway(.immediate(.enhanceYourCalm)),
        .close(CloseFault(afterBytes: 3)), .truncate(TruncateFault(keepBytes: 9)),
    ])
    func renderedRuleParsesBack(_ kind: FaultKind) throws {
        let route = RouteConfig(name: "h2", match: RouteMatch(path: .prefix("/v1/")), upstream: "demo",
                                faults: [FaultSpec(name: "f", kind: kind)])
        let response = AdminResponse.json(200, RuleJSON(route, source: "runtime", enabled: true, stats: []))
        // The rendering adds what a rule sent to the API must not carry.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        object["source"] = nil
        object["enabled"] = nil
        var faults = try #require(object["faults"] as? [[String: Any]])
        faults[0]["kind"] = nil
        faults[0]["stats"] = nil
        object["faults"] = faults
        let data = try JSONSerialization.data(withJSONObject: object)
        let parsed = try ConfigLoader.parseRule(data, upstreams: Self.upstreams, baseDirectory: nil)
        #expect(parsed.faults.map(\.kind) == [kind], "\(String(decoding: data, as: UTF8.self))")
    }
}
