import Foundation
import FaultlineAppPins

/// The command line of `faultline pins app`: the repeatable `--app`, `--chain` and `--host`
/// (which `Arguments` would keep only the last of) and the single-valued options.
struct PinsAppArguments {
    /// One `LABEL=VALUE` of a repeatable option.
    struct Labelled {
        let label: String
        let value: String
    }

    private(set) var apps: [Labelled] = []
    private(set) var chains: [Labelled] = []
    private(set) var hosts: [String] = []
    let at: Date
    let build: AppBuildVariant
    let json: Bool
    let ca: String?
    let token: String?
    let timeoutMs: Int
    let help: Bool

    init(_ arguments: [String], now: Date) throws(UsageError) {
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard let name = ["app", "chain", "host"].first(where: { argument == "--\($0)" || argument.hasPrefix("--\($0)=") }) else {
                rest.append(argument)
                continue
            }
            var value: String
            if argument == "--\(name)" {
                guard index < arguments.count else { throw UsageError("option --\(name) needs a value") }
                value = arguments[index]
                index += 1
            } else {
                value = String(argument.dropFirst(name.count + 3))
            }
            switch name {
            case "app": apps.append(try Self.labelled(value, option: "app", shape: "LABEL=FILE"))
            case "chain": chains.append(try Self.labelled(value, option: "chain", shape: "LABEL=SOURCE"))
            default:
                value = HostPattern.normalize(value)
                guard !value.isEmpty, !value.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                    throw UsageError("--host expects a host name, got \"\(value)\"")
                }
                if !hosts.contains(value) { hosts.append(value) }
            }
        }
        let parsed = try Arguments(rest, valued: ["at", "build", "format", "ca", "token", "timeout-ms"], flags: ["help"])
        help = parsed.flags.contains("help")
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument \"\(parsed.positionals[0])\"") }
        json = try PinsCommandSupport.wantsJSON(parsed)
        timeoutMs = try PinsCommandSupport.timeout(parsed)
        ca = parsed["ca"]
        token = parsed["token"] ?? ProcessInfo.processInfo.environment["FAULTLINE_ADMIN_TOKEN"]
        switch parsed["build"] ?? "release" {
        case "release": build = .release
        case "debuggable": build = .debuggable
        case let other: throw UsageError("--build expects release or debuggable, got \"\(other)\"")
        }
        if let text = parsed["at"] {
            guard let date = Self.date(text) else {
                throw UsageError("--at expects an ISO 8601 date (2027-06-01, midnight UTC) or date-time with an offset (2027-06-01T12:00:00Z), got \"\(text)\"")
            }
            at = date
        } else {
            at = now
        }
        guard help || !apps.isEmpty else { throw UsageError("give at least one --app LABEL=FILE") }
        guard help || !chains.isEmpty else { throw UsageError("give at least one --chain LABEL=SOURCE") }
        for (option, list) in [("app", apps), ("chain", chains)] {
            var seen: Set<String> = []
            for item in list where !seen.insert(item.label).inserted {
                throw UsageError("--\(option): the label \"\(item.label)\" is given twice")
            }
        }
    }

    /// `LABEL=VALUE` with a label of letters, digits, `.`, `_` and `-`.
    private static func labelled(_ text: String, option: String, shape: String) throws(UsageError) -> Labelled {
        guard let equals = text.firstIndex(of: "=") else {
            throw UsageError("--\(option) expects \(shape), got \"\(text)\"")
        }
        let label = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        let allowed = label.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        guard !label.isEmpty, allowed else {
            throw UsageError("--\(option) expects \(shape) with a label of letters, digits, '.', '_' or '-', got \"\(text)\"")
        }
        guard !value.isEmpty else { throw UsageError("--\(option) \(label)=: the \(shape.split(separator: "=").last ?? "") is empty") }
        return Labelled(label: label, value: value)
    }

    /// `2027-06-01` (midnight UTC) or an internet date-time with an offset.
    static func date(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        full.formatOptions = [.withInternetDateTime]
        if let date = full.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        guard text.count == 10 else { return nil }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }
}
