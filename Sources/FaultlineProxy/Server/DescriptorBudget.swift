import Foundation

/// What the process's descriptor limit (RLIMIT_NOFILE) allows. A client connection may hold
/// two descriptors (its own and an upstream one), and some are kept back for the log file,
/// a reload (DNS, certificate files) and admin connections; `max_connections` beyond that
/// would only end in EMFILE at accept.
public enum DescriptorBudget {
    /// Descriptors kept back beyond those open at start and two per client connection.
    public static let reserve = 16

    /// Raises the soft descriptor limit to the hard one (as nginx's worker_rlimit_nofile and
    /// HAProxy do); returns the soft limit now in effect. Call once at start, before threads.
    @discardableResult
    public static func raiseSoftLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return Int.max }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return softLimit(limits)
    }

    /// The soft descriptor limit (Int.max when unlimited or unknown).
    public static func currentLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return Int.max }
        return softLimit(limits)
    }

    /// How many client connections fit: (soft limit − descriptors open now − reserve) / 2,
    /// at least 1. Call once the listeners and loops exist, so they are counted.
    static func connectionCeiling(limit: Int) -> Int {
        guard limit < Int.max / 2 else { return Int.max }
        let spare = limit - openDescriptors() - reserve
        return max(1, spare / 2)
    }

    private static func softLimit(_ limits: rlimit) -> Int {
        // RLIM_INFINITY is all ones: above Int.max like any value too large to matter.
        limits.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }

    /// Descriptors open in this process (the directory listing's own one excluded).
    private static func openDescriptors() -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return 0 }
        return max(0, entries.count - 1)
    }
}
