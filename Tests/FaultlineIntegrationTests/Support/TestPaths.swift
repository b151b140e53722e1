import Foundation

/// Where the binary under test and the tools the tests drive live.
enum TestPaths {
    /// The package root, derived from this file's path (`Tests/FaultlineIntegrationTests/Support/`).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `$FAULTLINE_BIN`, or `.build/debug/faultline` in the package.
    static var faultline: String {
        if let path = ProcessInfo.processInfo.environment["FAULTLINE_BIN"], !path.isEmpty { return path }
        return packageRoot.appendingPathComponent(".build/debug/faultline").path
    }

    static let curl = "/usr/bin/curl"
    static let python3 = "/usr/bin/python3"
}
