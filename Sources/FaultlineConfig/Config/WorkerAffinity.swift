/// Whether the workers' threads are bound to CPUs (`worker_affinity`).
public enum WorkerAffinity: String, Sendable, Equatable, CaseIterable {
    /// Each worker on a CPU of its own when there are exactly as many workers as CPUs the
    /// process may run on (the default `workers: 0` on a machine or cpuset of its own);
    /// otherwise, as with `none`, wherever the kernel schedules them.
    case auto
    /// Never bound: the kernel moves each worker between CPUs as it sees fit.
    case none
}
