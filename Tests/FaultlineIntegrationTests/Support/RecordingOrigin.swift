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

    let child: ChildProcess
    let port: Int
    let directory: TemporaryDirectory

    private init(child: ChildProcess, port: Int, directory: TemporaryDirectory) {
        self.child = child
        self.port = port
        self.directory = directory
    }

    /// Starts the origin and waits for the line that names its port.
    static func start() async throws -> RecordingOrigin {
        let directory = try TemporaryDirectory()
        let script = try directory.write("origin.py", RecordingOriginScript.source)
        let records = directory.path("records")
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        let child = try ChildProcess(executable: TestPaths.python3, arguments: ["-u", script, records], directory: directory.url)
        let marker = "origin listening on 127.0.0.1:"
        let line = try await child.output.waitForLine("the recording origin's port", timeout: .seconds(15)) {
            $0.contains(marker)
        }
        guard let port = Int(line.text.split(separator: ":").last ?? "") else {
            throw TestFailure("no port in \"\(line.text)\"")
        }
        return RecordingOrigin(child: child, port: port, directory: directory)
    }

    /// Every connection the origin accepted so far, in accept order.
    func connections() -> [Connection] {
        let ended = Set(child.output.lines.compactMap { line -> Int? in
            let words = line.text.split(separator: " ")
            guard words.count >= 3, words[0] == "conn", ["eof", "closed-by-origin", "bad", "error"].contains(words[2]) else { return nil }
            return Int(words[1])
        })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path("records"))) ?? []
        let numbers = names.compactMap { name -> Int? in
            guard name.hasPrefix("conn-"), name.hasSuffix(".raw") else { return nil }
            return Int(name.dropFirst(5).dropLast(4))
        }.sorted()
        return numbers.map { number in
            let data = FileManager.default.contents(atPath: directory.path("records/conn-\(number).raw")) ?? Data()
            return Connection(number: number, bytes: [UInt8](data), ended: ended.contains(number))
        }
    }

    /// The origin's log lines (connection events and refusals).
    var log: String { child.output.text }

    func kill() { child.kill() }
}
