import Foundation

/// Reads a DER certificate's subject with the openssl CLI, independent of the code under test.
enum TLSTestX509 {
    static func subject(_ der: [UInt8]) -> String? {
        let file = NSTemporaryDirectory() + "faultline-der-\(UInt32.random(in: 0...UInt32.max)).der"
        _ = FileManager.default.createFile(atPath: file, contents: Data(der))
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard let result = try? TLSTestCommand.run(["openssl", "x509", "-inform", "DER", "-in", file, "-noout", "-subject"]) else {
            return nil
        }
        let line = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.hasPrefix("subject=") ? String(line.dropFirst("subject=".count)) : line
    }
}
