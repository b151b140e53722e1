import FaultlineConfig
import Foundation

/// `faultline scenario from-har FILE.har`: writes a scenario that reproduces the HAR's failure
/// pattern (docs/scenarios.md, "From a HAR file"). The reading and the building are
/// FaultlineConfig's (`HARInput`, `HARScenarioBuilder`); this reads the file, checks the
/// result with the scenario loader and writes it.
enum ScenarioFromHARCommand {
    static let usage = """
    Usage: faultline scenario from-har FILE.har [--only-failures] [--compress FACTOR | --max-gap-ms N]
                                       [--host PATTERN ...] [--slow-ms N] [--max-body-bytes N]
                                       [--name NAME] [-o OUT]

    Reads a HAR (Faultline's own export, a browser's, Charles's or Proxyman's; at most 64 MiB)
    and writes a scenario that reproduces its failures against the real upstream: each
    failing entry (5xx, 429, 408, aborted) or slow one becomes a rule on its method and path
    (with query or JSON body conditions where other requests to that path went differently),
    answering its status, headers and body, delayed when it was slow, reset when it was
    aborted; entries close in time share a phase, the time between them becomes empty phases,
    and the scenario ends in an open phase without rules.

    Options:
      --only-failures      leave slow but successful entries out
      --compress FACTOR    divide every phase's duration by FACTOR (1...1000)
      --max-gap-ms N       cap the empty phases between incidents at N ms
      --host PATTERN       only entries whose host matches (* = any run); repeatable
      --slow-ms N          an entry this slow is reproduced with a delay (default 1000)
      --max-body-bytes N   longest response body copied (default 16384)
      --name NAME          the scenario's name (default: har-<file name>)
      -o, --output OUT     where to write it (default, or -, standard output)

    Exit codes: 0 written; 1 the HAR could not be read or holds nothing to reproduce, or the
    file could not be written; 2 usage error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        let command = "faultline scenario from-har"
        var hosts: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--host" {
                guard index < arguments.count else { return usageError(command, "option --host needs a value") }
                hosts.append(arguments[index])
                index += 1
            } else if argument.hasPrefix("--host=") {
                hosts.append(String(argument.dropFirst("--host=".count)))
            } else {
                rest.append(argument == "-o" ? "--output" : argument)
            }
        }
        let parsed: Arguments
        switch Arguments.forCommand(command, rest, valued: ["compress", "max-gap-ms", "slow-ms", "max-body-bytes", "name", "output"],
                                    flags: ["only-failures"], maxPositionals: 1, usage: usage) {
        case .stop(let status): return status
        case .proceed(let arguments): parsed = arguments
        }
        guard let path = parsed.positionals.first else { return usageError(command, "expected FILE.har") }
        guard let options = options(parsed, hosts: hosts, path: path, command: command) else { return .usage }
        let input: HARInput
        let result: HARScenarioBuilder.Result
        do {
            input = try HARInput.read(try readFile(path))
            result = try HARScenarioBuilder.build(input, options: options)
        } catch {
            Console.err("\(command): \(path): \(error)")
            return .failure
        }
        for note in result.notes { Console.err("\(command): note: \(note)") }
        do {
            _ = try ScenarioConfig.load(json: result.json, upstreams: nil)
        } catch {
            // The builder writes only what the loader takes: this is Faultline's bug.
            Console.err("\(command): the scenario written would be refused (please report it):\n\(error)")
            return .failure
        }
        let output = parsed["output"] ?? "-"
        let summary = "\(result.phaseCount) phase(s), \(result.ruleCount) rule(s) from \(input.log.entries.count) entries"
        if output == "-" {
            FileHandle.standardOutput.write(Data(result.json))
            Console.err("\(command): \(summary)")
            return .ok
        }
        do {
            try Data(result.json).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            Console.err("\(command): cannot write \"\(output)\": \(error.localizedDescription)")
            return .failure
        }
        Console.out("wrote \(output) (\(summary))")
        return .ok
    }

    private static func usageError(_ command: String, _ message: String) -> ExitStatus {
        Console.err("\(command): \(message)\n\n\(usage)")
        return .usage
    }

    private static func options(_ parsed: Arguments, hosts: [String], path: String, command: String) -> HARScenarioOptions? {
        let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let defaultName = "har-" + String(base.unicodeScalars.map { scalar in
            ScenarioConfig.isValidName(String(scalar)) ? Character(scalar) : "-"
        }.prefix(90))
        var options = HARScenarioOptions(name: parsed["name"] ?? defaultName)
        options.onlyFailures = parsed.flags.contains("only-failures")
        options.hosts = hosts
        if parsed["compress"] != nil && parsed["max-gap-ms"] != nil {
            _ = usageError(command, "give --compress or --max-gap-ms, not both")
            return nil
        }
        if let text = parsed["compress"] {
            guard let factor = Double(text), factor >= 1, factor <= 1000 else {
                _ = usageError(command, "--compress expects a factor 1...1000, got \"\(text)\"")
                return nil
            }
            options.compress = factor
        }
        let integers: [(String, ClosedRange<Int>)] = [("max-gap-ms", 1...86_400_000), ("slow-ms", 1...86_400_000), ("max-body-bytes", 0...1_048_576)]
        for (name, range) in integers {
            guard let text = parsed[name] else { continue }
            guard let value = Int(text), range.contains(value) else {
                _ = usageError(command, "--\(name) expects an integer \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
                return nil
            }
            switch name {
            case "max-gap-ms": options.maxGapMs = value
            case "slow-ms": options.slowMs = value
            default: options.maxBodyBytes = value
            }
        }
        return options
    }

    /// The file's bytes; a file over `HARInput.maxFileBytes` (or not a regular file) is refused
    /// before it is read.
    private static func readFile(_ path: String) throws -> [UInt8] {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw HARReadError(path: "", message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw HARReadError(path: "", message: "not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= HARInput.maxFileBytes else {
            throw HARReadError(path: "", message: "the file has \(size) bytes; the most read is \(HARInput.maxFileBytes) (64 MiB)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw HARReadError(path: "", message: "cannot read the file") }
        return Array(data)
    }
}
