import Foundation
import FaultlineTestSupport

/// Fields of a `status` file in /proc (`/proc/PID/status`, `/proc/PID/task/TID/status`).
enum ProcessStatus {
    /// The value of the `field` line of the status file at `path`, without its padding
    /// (`VmRSS:\t    1234 kB` gives `1234 kB`); nil when unreadable or absent.
    static func value(_ field: String, inFile path: String) -> Substring? {
        guard let status = try? String(contentsOfFile: path, encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        let value = line.dropFirst(field.count + 1)
        return value.drop(while: { $0 == " " || $0 == "\t" })
    }

    /// The number the `field` line of the status file at `path` starts with (`VmRSS` in KiB,
    /// `nonvoluntary_ctxt_switches`); nil when unreadable or absent.
    static func number(_ field: String, inFile path: String) -> Int? {
        value(field, inFile: path)?.split(separator: " ").first.flatMap { Int($0) }
    }

    /// The CPUs of the `Cpus_allowed_list` line of the status file at `path` (ranges such as
    /// `0-1` or `0,2-3`), ascending.
    static func allowedCPUs(inFile path: String) throws -> [Int] {
        guard let list = value("Cpus_allowed_list", inFile: path) else {
            throw TestFailure("no Cpus_allowed_list in \(path)")
        }
        return try list.split(separator: ",").flatMap { range -> ClosedRange<Int> in
            let ends = range.split(separator: "-").compactMap { Int($0) }
            guard let low = ends.first, let high = ends.last, low <= high else {
                throw TestFailure("unreadable Cpus_allowed_list in \(path): \(list)")
            }
            return low...high
        }
    }
}
