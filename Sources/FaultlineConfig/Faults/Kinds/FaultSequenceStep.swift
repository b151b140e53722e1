/// One step of a `when.sequence`: the n-th eligible request takes the n-th step; once the
/// steps run out the fault passes.
public enum FaultSequenceStep: Sendable, Equatable {
    /// Fire as configured (`true` in the config).
    case fire
    /// Do not fire: the request passes through (`"pass"` or `false`).
    case pass
    /// Fire a status fault with this code instead of its own (status faults only).
    case status(Int)
}
