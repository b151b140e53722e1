/// Whether the workers' threads are bound to CPUs (`worker_affinity`). Off by default: on two
/// cores shared with the client and the origin, binding served plain HTTP/1 keep-alive more
/// requests and h2 and the TLS listener fewer (docs/bench.md, "Binding the workers to CPUs").
public enum WorkerAffinity: String, Sendable, Equatable, CaseIterable {
    /// Each worker on a CPU of its own when there are exactly as many workers as CPUs the
    /// process may run on (as `workers: 0` starts); otherwise, as with `none`, wherever the
    /// kernel schedules them.
    case auto
    /// Never bound (the default): the kernel moves each worker between CPUs as it sees fit.
    case none
}
