#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC, the clock of the event loops' `now`, read off the loops (the admin
/// API's queue), so session times taken there and on a loop compare.
enum MonotonicClock {
    /// Nanoseconds of CLOCK_MONOTONIC.
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
