import Foundation

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
}
