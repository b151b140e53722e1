/// One fault that fired on a request, with its resolved action.
public struct FiredFault: Sendable, Equatable {
    /// Position of the fault in its route's `faults`.
    public let faultIndex: Int
    /// The fault's name.
    public let name: String
    /// When in the exchange the action applies.
    public let phase: FaultPhase
    /// What to do.
    public let action: FaultAction

    /// Creates a fired fault.
    public init(faultIndex: Int, name: String, phase: FaultPhase, action: FaultAction) {
        self.faultIndex = faultIndex
        self.name = name
        self.phase = phase
        self.action = action
    }
}
