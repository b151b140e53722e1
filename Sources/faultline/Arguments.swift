/// A minimal option parser: `--name value`, `--name=value` and flags; positionals in order.
struct Arguments {
    private(set) var options: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `arguments`; `valued` names the options that take a value.
    init(_ arguments: [String], valued: Set<String>, flags allowed: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valued.contains(name) {
                if value == nil {
                    guard index < arguments.count else { throw UsageError("option --\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name] = value
            } else if allowed.contains(name) {
                guard value == nil else { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    /// The value of option `name`, if given.
    subscript(_ name: String) -> String? { options[name] }
}

/// A command-line mistake, shown with the command's usage.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What a command does after parsing its arguments.
enum ArgumentsOutcome {
    /// Go on with these.
    case proceed(Arguments)
    /// Stop with this status: `--help` was answered, or a mistake was reported with the usage.
    case stop(ExitStatus)
}

extension Arguments {
    /// Parses the arguments of `command`, answers `--help`, and reports mistakes (an unknown
    /// option, more positional arguments than `maxPositionals`) together with its usage.
    static func forCommand(_ command: String, _ arguments: [String], valued: Set<String>, flags: Set<String> = [],
                           maxPositionals: Int = Int.max, usage: String) -> ArgumentsOutcome {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: valued, flags: flags.union(["help"]))
        } catch {
            Console.err("\(command): \(error)\n\n\(usage)")
            return .stop(.usage)
        }
        if parsed.flags.contains("help") {
            Console.out(usage)
            return .stop(.ok)
        }
        if parsed.positionals.count > maxPositionals {
            Console.err("\(command): unexpected argument \"\(parsed.positionals[maxPositionals])\"\n\n\(usage)")
            return .stop(.usage)
        }
        return .proceed(parsed)
    }
}
