/// A fault to inject on a route. Placeholder: fault injection arrives in a later
/// version, and the loader refuses non-empty `faults` until then, so no value of this
/// type is ever produced from a file yet.
public struct FaultSpec: Sendable, Equatable {
    /// Creates an empty placeholder fault.
    public init() {}
}
