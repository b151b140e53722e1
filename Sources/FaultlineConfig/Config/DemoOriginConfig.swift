/// Where the binary starts its built-in demo origin server.
public struct DemoOriginConfig: Sendable, Equatable {
    /// The address to bind.
    public let address: SocketAddressSpec

    /// Creates a demo origin configuration.
    public init(address: SocketAddressSpec) {
        self.address = address
    }
}
