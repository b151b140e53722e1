import Foundation

/// Memory figures of a process, read from `/proc/PID/status`.
enum ProcessMemory {
    /// The `field` line (`VmRSS`, `VmHWM`) of process `pid`, in KiB; nil when unreadable.
    static func kibibytes(_ field: String, of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        // "VmRSS:\t    1234 kB": a tab, padding spaces (none at eight digits), the number.
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    /// The resident set size of process `pid` in KiB (`VmRSS`); nil when unreadable.
    static func residentKiB(_ pid: Int32) -> Int? {
        kibibytes("VmRSS", of: pid)
    }
}
