import Foundation

/// Where the package, the binary under test and the tools the tests drive live.
public enum TestPaths {
    /// The package root, derived from this file's path (`Tests/FaultlineTestSupport/`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory of the running test binary: the build directory (`.build/debug`,
    /// `.build/asan/debug`…) that also holds the `faultline` built with it.
    public static let buildDirectory: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map { URL(fileURLWithPath: $0) } ?? Bundle.main.executableURL
            ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return executable.deletingLastPathComponent()
    }()

    /// The binary under test: `$FAULTLINE_BIN` when set, otherwise the `faultline` that the
    /// same `swift build --build-tests` built next to the test binary (the integration test
    /// target depends on the executable target, so it is never older than the tests).
    public static var faultline: String {
        if let path = ProcessInfo.processInfo.environment["FAULTLINE_BIN"], !path.isEmpty { return path }
        return buildDirectory.appendingPathComponent("faultline").path
    }

    /// curl, the reference HTTP client.
    public static let curl = "/usr/bin/curl"
    /// python3, which runs the scripted origins.
    public static let python3 = "/usr/bin/python3"
    /// The Python tools the tests run from the source tree (`Tests/Scripts`): the HTTP/2
    /// probe and origin.
    public static let scripts: URL = packageRoot.appendingPathComponent("Tests/Scripts")
}
