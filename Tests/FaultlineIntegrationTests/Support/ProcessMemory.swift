import Foundation

/// Memory figures of a process, read from `/proc/PID/status`.
enum ProcessMemory {
    /// The `field` line (`VmRSS`, `VmHWM`) of process `pid`, in KiB; nil when unreadable.
    static func kibibytes(_ field: String, of pid: Int32) -> Int? {
        ProcessStatus.number(field, inFile: "/proc/\(pid)/status")
    }

    /// The resident set size of process `pid` in KiB (`VmRSS`); nil when unreadable.
    static func residentKiB(_ pid: Int32) -> Int? {
        kibibytes("VmRSS", of: pid)
    }
}
