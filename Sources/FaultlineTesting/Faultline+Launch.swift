import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
extension Faultline {
    private static let listeningPrefix = "faultline: listening on "
    private static let adminPrefix = "faultline: admin API listening on "
    private static let originPrefix = "faultline: demo origin listening on "

    /// Starts the binary (`binary`, else `FAULTLINE_BIN`, else `faultline` on PATH) on
    /// 127.0.0.1 port 0 with an admin API on port 0, one upstream named `"default"` and one
    /// catch-all route `"default"` to it; without `upstream`, also starts `faultline
    /// demo-origin --listen 127.0.0.1:0` and proxies to it. Ready when both "listening on"
    /// lines are printed and `GET /health` answers. Stopped by `stop()` and on deinit.
    public static func launch(upstream: URL? = nil, binary: String? = nil,
                              readinessTimeout: Duration = .seconds(20)) async throws -> Faultline {
        let executable = try BinaryLocator.locate(explicit: binary)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-testing-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FaultlineError.launchFailed(reason: "cannot create \(directory.path): \(error)", output: "")
        }
        let processes = LaunchedProcesses(directory: directory)
        do {
            return try await start(executable: executable, upstream: upstream, processes: processes,
                                   timeout: readinessTimeout)
        } catch {
            processes.stop()
            throw error
        }
    }

    private static func start(executable: String, upstream: URL?, processes: LaunchedProcesses,
                              timeout: Duration) async throws -> Faultline {
        // One deadline for the origin and the proxy together, as the caller gave one timeout.
        let deadline = ContinuousClock.now + timeout
        let upstreamURL: URL
        if let upstream {
            upstreamURL = upstream
        } else {
            let origin = try ChildProcess(executable: executable, arguments: ["demo-origin", "--listen", "127.0.0.1:0"],
                                          directory: processes.directory)
            processes.adopt(origin: origin)
            let address = try await origin.waitForLines([originPrefix], until: deadline, timeout: timeout)[0]
            upstreamURL = try url(address, printedBy: origin)
        }
        let config = processes.directory.appendingPathComponent("faultline.json")
        do {
            try Data(configuration(upstream: upstreamURL).text.utf8).write(to: config)
        } catch {
            throw FaultlineError.launchFailed(reason: "cannot write \(config.path): \(error)", output: "")
        }
        let proxy = try ChildProcess(executable: executable, arguments: ["run", "--config", config.path],
                                     directory: processes.directory)
        processes.adopt(proxy: proxy)
        let addresses = try await proxy.waitForLines([listeningPrefix, adminPrefix], until: deadline, timeout: timeout)
        let faultline = Faultline(proxyURL: try url(addresses[0], printedBy: proxy),
                                  adminURL: try url(addresses[1], printedBy: proxy),
                                  upstreamURL: upstreamURL, token: nil, processes: processes)
        do {
            try await faultline.health()
        } catch {
            throw FaultlineError.launchFailed(reason: "GET /health failed: \(error)", output: proxy.output.snapshot)
        }
        return faultline
    }

    /// The config file: loopback listener and admin API on free ports, one upstream, one
    /// catch-all route, the log in the temporary directory (a full pipe never blocks it).
    static func configuration(upstream: URL) -> JSONValue {
        .object([
            "listeners": .array([.object(["address": .string("127.0.0.1:0"), "h2c": .bool(true)])]),
            "admin": .object(["address": .string("127.0.0.1:0")]),
            "upstreams": .object(["default": .object(["url": .string(upstream.absoluteString),
                                                      "host_header": .string("upstream")])]),
            "routes": .array([.object(["name": .string("default"), "upstream": .string("default")])]),
            "log": .object(["format": .string("json"), "destination": .string("file"), "path": .string("faultline.log")]),
        ])
    }

    private static func url(_ address: String, printedBy child: ChildProcess) throws -> URL {
        guard let url = URL(string: "http://\(address)") else {
            throw FaultlineError.launchFailed(reason: "cannot read the address \"\(address)\" \(child.commandLine) printed",
                                              output: child.output.snapshot)
        }
        return url
    }
}
#endif
