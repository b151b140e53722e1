import Foundation

/// The recording origin (`RecordingOriginScript`) in a child process: where it listens, and
/// the raw bytes it read on each upstream connection, with whether that connection has ended.
final class RecordingOrigin: Sendable {
    /// What the origin read on one connection, and whether the connection is over.
    struct Connection: Sendable {
        let number: Int
        let bytes: [UInt8]
        let ended: Bool
    }

    private let process: PythonScriptProcess

    var port: Int { process.port }

    private init(process: PythonScriptProcess) { self.process = process }

    /// Starts the origin and waits for the line that names its port.
    static func start() async throws -> RecordingOrigin {
        let process = try await PythonScriptProcess.start("origin.py", source: RecordingOriginScript.source) { directory in
            let records = directory.path("records")
            try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
            return [records]
        }
        return RecordingOrigin(process: process)
    }

    /// Every connection the origin accepted so far, in accept order.
    func connections() -> [Connection] {
        let ended = Set(process.output.settledLines.compactMap { line -> Int? in
            let words = line.text.split(separator: " ")
            guard words.count >= 3, words[0] == "conn", ["closed-by-peer", "closed-by-origin", "bad", "error"].contains(words[2]) else { return nil }
            return Int(words[1])
        })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: process.directory.path("records"))) ?? []
        let numbers = names.compactMap { name -> Int? in
            guard name.hasPrefix("conn-"), name.hasSuffix(".raw") else { return nil }
            return Int(name.dropFirst(5).dropLast(4))
        }.sorted()
        return numbers.map { number in
            let data = FileManager.default.contents(atPath: process.directory.path("records/conn-\(number).raw")) ?? Data()
            return Connection(number: number, bytes: [UInt8](data), ended: ended.contains(number))
        }
    }

    /// The origin's log lines (connection events and refusals).
    var log: String { process.output.text }

    func kill() { process.kill() }
}
