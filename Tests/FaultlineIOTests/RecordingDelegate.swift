import FaultlineIO
import FaultlineTestSupport

/// A stream socket delegate that records what the socket told it, for tests to wait on.
final class RecordingDelegate: StreamSocketDelegate, Sendable {
    /// One call from the socket.
    enum Event: Sendable, Equatable {
        case read([UInt8])
        case endOfFile
        case drained
        case connected
        case failed(Int32)
    }

    /// Every call so far, in order.
    let events = Recorder<Event>()

    /// The bytes of every read so far, concatenated.
    var received: [UInt8] {
        events.all.flatMap { event -> [UInt8] in
            if case .read(let bytes) = event { return bytes }
            return []
        }
    }

    /// Waits until at least `count` bytes have been read, and returns them all.
    func waitForBytes(_ count: Int) throws -> [UInt8] {
        try events.wait("\(count) bytes") { _ in received.count >= count }
        return received
    }

    /// Waits for an event that `matches`.
    func wait(for what: String, _ matches: @escaping (Event) -> Bool) throws {
        try events.wait(what) { $0.contains(where: matches) }
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) { events.append(.read(Array(bytes))) }
    func socketDidReadEOF(_ socket: StreamSocket) { events.append(.endOfFile) }
    func socketDidDrain(_ socket: StreamSocket) { events.append(.drained) }
    func socketDidConnect(_ socket: StreamSocket) { events.append(.connected) }
    func socket(_ socket: StreamSocket, didFail error: IOError) { events.append(.failed(error.code)) }
}
