import Foundation
@testable import FaultlineConfig

/// Scenario documents (a scenario file, `POST /scenarios`): JSON bytes through
/// `ScenarioConfig.load(json:upstreams:allowStart:)`. Invariants: no input traps; a refused
/// document gets errors whose paths start with `scenario`; an accepted one keeps the
/// bounds the format promises (1…100 phases, at most 100 rules each with unique names, a
/// valid name, only the last phase open-ended, a looping scenario's last phase ending) and
/// its rules compile into a route table.
///
/// Input: a byte choosing whether upstream names are checked, then the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let upstreams: [UpstreamConfig]? = input.flag() ? ScenarioFixture.upstreams : nil
    let body = Data(input.rest())
    do throws(ConfigErrors) {
        let scenario = try ScenarioConfig.load(json: body, upstreams: upstreams, allowStart: true)
        let shown = FuzzCheck.show(Array(body))
        FuzzCheck.require(ScenarioConfig.isValidName(scenario.name), "scenario: invalid name accepted\n  input: \(shown)")
        FuzzCheck.require((1...ScenarioConfig.maxPhases).contains(scenario.phases.count), "scenario: phase count\n  input: \(shown)")
        for (index, phase) in scenario.phases.enumerated() {
            FuzzCheck.require(phase.rules.count <= ScenarioConfig.maxRulesPerPhase, "scenario: rule count\n  input: \(shown)")
            FuzzCheck.require(Set(phase.rules.map(\.name)).count == phase.rules.count, "scenario: duplicate rule names\n  input: \(shown)")
            if phase.end == .never {
                FuzzCheck.require(index == scenario.phases.count - 1 && !scenario.loop, "scenario: open-ended phase\n  input: \(shown)")
            }
            if case .requests = phase.end { FuzzCheck.require(!phase.rules.isEmpty, "scenario: counted phase without rules\n  input: \(shown)") }
            let routes = phase.rules.map { RouteConfig(name: $0.name, match: $0.match, upstream: "origin", faults: $0.faults) }
            let config = ProxyConfig(listeners: [ListenerConfig(address: ScenarioFixture.listen)],
                                     upstreams: ScenarioFixture.upstreams, routes: routes)
            ConfigCompilation.exercise(config)
        }
    } catch {
        ConfigErrorCheck.check(error, document: body, topLevelKeys: [], prefix: "scenario")
    }
    return 0
}

/// The running configuration a scenario's rules join.
enum ScenarioFixture {
    static let upstreams = [UpstreamConfig(name: "origin", host: "127.0.0.1", port: 8081)]
    static let listen: SocketAddressSpec = {
        do {
            return try SocketAddressSpec(parsing: "127.0.0.1:8080")
        } catch {
            FuzzCheck.fail("fixture address refused: \(error)")
        }
    }()
}
