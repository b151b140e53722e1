/// Change the upstream's answer on its way to the client (at least one change when loaded).
public struct RewriteFault: Sendable, Equatable {
    /// New status code, 100...599; nil keeps the upstream's.
    public let status: Int?
    /// Header fields added (replacing fields of the same name), sorted by name.
    public let addHeaders: [FaultHeader]
    /// Header names removed, compared case-insensitively.
    public let removeHeaders: [String]

    /// Creates a rewrite.
    public init(status: Int? = nil, addHeaders: [FaultHeader] = [], removeHeaders: [String] = []) {
        self.status = status
        self.addHeaders = addHeaders
        self.removeHeaders = removeHeaders
    }
}
