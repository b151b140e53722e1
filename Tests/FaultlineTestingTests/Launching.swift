import FaultlineTestSupport
import FaultlineTesting
import Foundation

/// How these tests launch the binary under test: the build's own `faultline`, with room
/// for a loaded machine (a shared runner can take many seconds to start a debug binary).
enum Launching {
    static func faultline(upstream: URL? = nil) async throws -> Faultline {
        try await Faultline.launch(upstream: upstream, binary: TestPaths.faultline, readinessTimeout: .seconds(60))
    }
}
