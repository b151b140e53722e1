/// What a stream socket tells its owner; all calls happen on the socket's loop.
public protocol StreamSocketDelegate: AnyObject {
    /// Bytes arrived; they live in the loop's read buffer and must be used before returning.
    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer)
    /// The peer closed its sending side.
    func socketDidReadEOF(_ socket: StreamSocket)
    /// Everything queued for writing has been taken by the kernel.
    func socketDidDrain(_ socket: StreamSocket)
    /// A non-blocking connect finished successfully.
    func socketDidConnect(_ socket: StreamSocket)
    /// The socket failed (reset, connect refused, write error); it is already closed.
    func socket(_ socket: StreamSocket, didFail error: IOError)
}
