/// The admin API listener (parsed and validated; served by a later version).
public struct AdminConfig: Sendable, Equatable {
    /// The address to bind.
    public let address: SocketAddressSpec
    /// Bearer token required on admin requests, if any.
    public let token: String?

    /// Creates an admin listener configuration.
    public init(address: SocketAddressSpec, token: String? = nil) {
        self.address = address
        self.token = token
    }
}
