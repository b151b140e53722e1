import Foundation

/// URLSession (FoundationNetworking, libcurl underneath) trusting a test CA, as an app on a
/// device that trusts the staging CA would.
///
/// FoundationNetworking on Linux trusts only the system store (libcurl's compiled-in
/// `/etc/ssl/certs` bundle and directory): it reads no CA variable and delivers no
/// server-trust challenge. So the client runs in a process of its own (`URLSessionProbe`)
/// inside a private mount namespace (`unshare -m`), where a temporary directory holding
/// only the test CA is bind-mounted over `/etc/ssl/certs`; the host's store is untouched.
/// That needs the right to create a mount namespace (root, or CAP_SYS_ADMIN), which the
/// test machines have; without it `run` throws, it never skips.
public enum TrustedURLSession {
    /// What one request ended with, as the probe printed it.
    public struct Outcome: Decodable, Sendable, CustomStringConvertible {
        /// The response status, when a response arrived.
        public let status: Int?
        /// The body length received.
        public let bodyBytes: Int?
        /// Response header fields, names lowercased.
        public let headers: [String: String]?
        /// The NSError code, when the request failed.
        public let errorCode: Int?
        /// The error's description (libcurl's message on Linux).
        public let errorDescription: String?

        public var description: String {
            "status \(status.map(String.init) ?? "none"), \(bodyBytes ?? 0) body bytes, error \(errorCode.map(String.init) ?? "none") \(errorDescription ?? "")"
        }
    }

    /// Sends `count` requests for `url` at once on one URLSession that trusts only the CA in
    /// `caPEMPath`; `extra` are further probe options (`--method`, `--body-bytes`,
    /// `--header name:value`); `environment` (`NAME=value`, e.g. `https_proxy=…`) is added to
    /// the probe's environment. Blocking: call from `Blocking.run` in async code.
    public static func run(_ url: String, trusting caPEMPath: String, count: Int = 1, extra: [String] = [],
                           environment: [String] = [], timeoutSeconds: Int = 10) throws(TestFailure) -> [Outcome] {
        let store: TemporaryDirectory
        do {
            store = try TemporaryDirectory(prefix: "faultline-truststore")
            let pem = try Data(contentsOf: URL(fileURLWithPath: caPEMPath))
            try store.write("ca-certificates.crt", pem)
        } catch {
            throw TestFailure("cannot prepare a trust store with \(caPEMPath): \(error)")
        }
        defer { store.remove() }
        // libcurl also looks certificates up by subject hash in the directory.
        try Command.run(["openssl", "rehash", store.path])
        let probe = TestPaths.buildDirectory.appendingPathComponent("URLSessionProbe").path
        let arguments = ["unshare", "-m", "/bin/sh", "-c", "mount --bind \"$0\" /etc/ssl/certs && exec \"$@\"",
                         store.path, "/usr/bin/env"] + environment
            + [probe, "--count", String(count), "--timeout", String(timeoutSeconds)] + extra + [url]
        let result = try Command.launch(arguments, timeout: .seconds(timeoutSeconds * 3 + 10))
        guard result.status == 0 else {
            throw TestFailure("URLSessionProbe in a private trust store exited \(result.status): \(result.error) \(result.output)")
        }
        let decoder = JSONDecoder()
        let outcomes = result.output.split(separator: "\n").compactMap { line in
            try? decoder.decode(Outcome.self, from: Data(line.utf8))
        }
        guard outcomes.count == count else {
            throw TestFailure("URLSessionProbe printed \(outcomes.count) outcomes for \(count) requests: \(result.output)")
        }
        return outcomes
    }
}
