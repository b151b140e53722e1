import FaultlineIO

/// Where a `ResponsePacer` hands the bytes it releases: the client socket for HTTP/1, one
/// stream's outbound queue for HTTP/2.
protocol PacedSink: AnyObject {
    /// Takes bytes for the client (copied before the call returns).
    func writePaced(_ bytes: UnsafeRawBufferPointer)
    /// Whether the client can no longer receive anything.
    var isSinkClosed: Bool { get }
}

extension StreamSocket: PacedSink {
    func writePaced(_ bytes: UnsafeRawBufferPointer) {
        _ = write(bytes)
    }

    var isSinkClosed: Bool { isClosed }
}
