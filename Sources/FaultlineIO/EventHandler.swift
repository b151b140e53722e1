/// Something registered with an event loop for readiness events on one file descriptor.
public protocol EventHandler: AnyObject {
    /// Called on the loop's thread with the epoll event bits that are ready.
    func handleEvents(_ events: UInt32)
}

/// Readiness bits, re-exported so that modules above do not import the C shim.
public enum IOEvents {
    /// Readable.
    public static let readable = EPOLLValues.input
    /// Writable.
    public static let writable = EPOLLValues.output
    /// Error on the socket.
    public static let error = EPOLLValues.error
    /// Peer hung up.
    public static let hangup = EPOLLValues.hangup
    /// Peer shut its write side.
    public static let readHangup = EPOLLValues.readHangup
}
