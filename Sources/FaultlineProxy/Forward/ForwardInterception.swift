import FaultlineTLS

/// What an intercepted connection carries from its CONNECT: the destination of every request
/// on it, its TLS session (the minted leaf), and its place among the open tunnels.
final class ForwardInterception {
    let destination: ForwardDestination
    /// The server session, taken by the connection's socket.
    let session: TLSSession
    /// `forward.pass_through_after_refusals` of the listener.
    let passThroughAfterRefusals: Int?
    private let release: () -> Void

    init(destination: ForwardDestination, session: TLSSession, passThroughAfterRefusals: Int?, release: @escaping () -> Void) {
        self.destination = destination
        self.session = session
        self.passThroughAfterRefusals = passThroughAfterRefusals
        self.release = release
    }

    deinit {
        // The HTTP/1 connection, or the HTTP/2 one it handed over to, is gone.
        release()
    }
}
