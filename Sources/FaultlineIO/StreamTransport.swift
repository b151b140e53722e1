/// What a `StreamSocket` asks of the connection under it when that is not a kernel socket:
/// the few system calls it makes, answered in memory. Tests plug one in (an in-memory
/// connection whose other end the test reads and writes, as SwiftNIO's `EmbeddedChannel`
/// does for a pipeline); a production socket has none and calls `Sockets` on its descriptor.
///
/// The socket checks for a transport once per system call (one load and a branch on the
/// descriptor path); nothing is allocated per read or write, and no protocol call is made
/// unless a transport is present.
package protocol StreamTransport: AnyObject {
    /// The socket now wants `events` (`IOEvents` bits): registration and every interest change.
    func watch(_ handler: EventHandler, events: UInt32)
    /// As `read(2)` on a non-blocking socket.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Sockets.ReadResult
    /// As `send(2)` on a non-blocking socket: the count taken, 0 when full.
    func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, IOError>
    /// As `SO_ERROR`: the outcome of a connect, or the error that woke the socket; 0 if none.
    func pendingError() -> Int32
    /// Bytes received and not yet read.
    func readableBytes() -> Int
    /// As `recv(MSG_PEEK)` of one byte: bytes waiting, end of file, nothing, or an error.
    func peek() -> Sockets.ReadResult
    /// Sends FIN after what was written.
    func shutdownWrite()
    /// Closes this end; `reset` sends RST instead of FIN.
    func close(reset: Bool)
}

/// Makes the connections `StreamSocket.connect` asks for on a loop whose `network` is set:
/// an in-memory network of test peers instead of the kernel's.
package protocol StreamNetwork: AnyObject {
    /// Starts connecting to `address`; the connect completes (or is refused) on a later event.
    func connect(to address: SocketAddress) throws(IOError) -> any StreamTransport
}
