import Foundation
import FaultlineTestSupport

/// Reads a DER certificate's subject with the openssl CLI, independent of the code under test.
enum TLSTestX509 {
    static func subject(_ der: [UInt8]) -> String? {
        guard let directory = try? TemporaryDirectory(prefix: "faultline-der"),
              let file = try? directory.write("certificate.der", Data(der)),
              let result = try? Command.run(["openssl", "x509", "-inform", "DER", "-in", file, "-noout", "-subject"]) else {
            return nil
        }
        let line = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.hasPrefix("subject=") ? String(line.dropFirst("subject=".count)) : line
    }
}
