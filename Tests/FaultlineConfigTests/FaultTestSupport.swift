import Foundation
import Synchronization
@testable import FaultlineConfig

/// A document whose only route (upstream demo) has `faults` (a JSON array) and optional
/// extra top-level members.
func withFaults(_ faults: String, top: String = "") -> String {
    let extra = top.isEmpty ? "" : ", \(top)"
    return #"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}, "routes": [{"name": "r", "upstream": "demo", "faults": \#(faults)}]\#(extra)}"#
}

/// The faults of the only route of `withFaults(faults)`.
func loadFaults(_ faults: String) throws -> [FaultSpec] {
    try ConfigLoader.parse(Data(withFaults(faults).utf8), file: nil, checkFiles: false).routes[0].faults
}

/// A compiled route holding `faults`, for decider tests.
func route(_ faults: [FaultSpec], index: Int = 0, name: String = "r") -> CompiledRoute {
    CompiledRoute(
        index: index, name: name,
        upstream: UpstreamConfig(name: "demo", scheme: "http", host: "127.0.0.1", port: 8081), faults: faults)
}

/// A clock that tests move by hand.
final class SteppedClock: Sendable {
    private let now = Atomic<UInt64>(1_000)

    /// The clock function to hand to a decider.
    var function: @Sendable () -> UInt64 {
        { [self] in now.load(ordering: .relaxed) }
    }

    /// Moves the clock forward.
    func advance(_ ms: UInt64) {
        now.wrappingAdd(ms, ordering: .relaxed)
    }
}

/// Whether the decision fired anything, over `count` requests.
func firings(_ decider: FaultDecider, _ route: CompiledRoute, count: Int) -> [Bool] {
    (0..<count).map { _ in
        let decision = decider.decide(route: route)
        decider.finished(decision)
        return !decision.isEmpty
    }
}
