import Foundation
import FaultlineTestSupport

extension TemporaryDirectory {
    /// Runs `/bin/sh -c script` in the directory; throws with its output on a non-zero exit.
    @discardableResult
    func shell(_ script: String) throws -> String {
        try Command.shell(script, in: url).output
    }

    /// Runs `/bin/sh -c script` in the directory and returns its status and merged output.
    func shellResult(_ script: String) throws -> CommandResult {
        try Command.shellResult(script, in: url)
    }

    /// The pin by the openssl CLI pipeline, the reference the pin code must agree with,
    /// from a command printing a PEM public key.
    func pipelinePin(publicKeyCommand: String) throws -> String {
        try shell("\(publicKeyCommand) | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pin of a certificate file by `openssl x509 -noout -pubkey | … | base64`.
    func certificatePin(_ file: String, der: Bool = false) throws -> String {
        try pipelinePin(publicKeyCommand: "openssl x509 -in \(file) \(der ? "-inform DER " : "")-noout -pubkey")
    }
}
