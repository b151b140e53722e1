import FaultlineConfig

/// Where the workers' threads run. With `worker_affinity: auto` (not the default) and exactly
/// as many workers as CPUs the process may run on, each worker is bound to a CPU of its own:
/// one event loop per core, as nginx's `worker_cpu_affinity auto` and HAProxy's `cpu-map`
/// offer. Otherwise the kernel places them: fewer workers than CPUs leave it room to move a
/// loop away from a busy core, more than CPUs would make two loops share one for good.
public enum WorkerPlacement: Sendable, Equatable, CustomStringConvertible {
    /// Worker N's thread is bound to `cpus[N]`.
    case pinned(cpus: [Int])
    /// The kernel moves the workers between CPUs; `reason` says why they are not bound.
    case floating(reason: String)

    /// The placement `affinity` asks for, given the workers and the CPUs the process may run on
    /// (`CPUAffinity.allowedCPUs()`, empty when unknown).
    static func choose(workers: Int, affinity: WorkerAffinity, allowedCPUs: [Int]) -> WorkerPlacement {
        switch affinity {
        case .none:
            return .floating(reason: "worker_affinity is none")
        case .auto:
            guard !allowedCPUs.isEmpty else { return .floating(reason: "the CPUs this process may use are unknown") }
            guard workers == allowedCPUs.count else {
                return .floating(reason: "\(workers) worker(s) for \(allowedCPUs.count) CPU(s) (\(Self.list(allowedCPUs))); "
                    + "workers are bound only one per CPU")
            }
            return .pinned(cpus: allowedCPUs)
        }
    }

    /// "each bound to a CPU of its own (0, 1)" or "not bound to CPUs: " and the reason.
    public var description: String {
        switch self {
        case .pinned(let cpus): "each bound to a CPU of its own (\(Self.list(cpus)))"
        case .floating(let reason): "not bound to CPUs: \(reason)"
        }
    }

    /// "0, 1, 2".
    static func list(_ cpus: [Int]) -> String {
        cpus.map(String.init).joined(separator: ", ")
    }
}
