import Foundation

/// A scratch directory for one test, removed when dropped, plus the openssl CLI as the
/// reference implementation that the pin code must agree with.
final class CertificateScratch: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    /// Runs `/bin/sh -c script` in the directory; throws with its stderr on a non-zero exit.
    @discardableResult
    func shell(_ script: String) throws -> String {
        let result = try shellResult(script)
        guard result.status == 0 else {
            throw CertificateTestFailure("`\(script)` exited \(result.status): \(result.output)")
        }
        return result.output
    }

    /// Runs `/bin/sh -c script` in the directory and returns its status and merged output.
    func shellResult(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "{ \(script)\n} 2>&1"]
        process.currentDirectoryURL = url
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The pin by the openssl CLI pipeline, from a command printing a PEM public key.
    func pipelinePin(publicKeyCommand: String) throws -> String {
        try shell("\(publicKeyCommand) | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pin of a certificate file by `openssl x509 -noout -pubkey | … | base64`.
    func certificatePin(_ file: String, der: Bool = false) throws -> String {
        try pipelinePin(publicKeyCommand: "openssl x509 -in \(file) \(der ? "-inform DER " : "")-noout -pubkey")
    }
}

/// A failed expectation in test setup.
struct CertificateTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
