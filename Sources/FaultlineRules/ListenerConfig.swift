/// A plain-HTTP listener for client connections.
public struct ListenerConfig: Sendable, Equatable {
    /// The address to bind.
    public let address: SocketAddressSpec

    /// Creates a listener bound to `address`.
    public init(address: SocketAddressSpec) {
        self.address = address
    }
}
