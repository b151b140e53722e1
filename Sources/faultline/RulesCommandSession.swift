import Foundation

/// One `faultline rules` invocation: the admin API to ask and how to print its answers.
struct RulesCommandSession {
    let client: RulesCommandClient
    let json: Bool

    /// Reads --admin (or $FAULTLINE_ADMIN), --token (or $FAULTLINE_ADMIN_TOKEN), --format, --timeout-ms.
    init(_ parsed: Arguments) throws(UsageError) {
        let environment = ProcessInfo.processInfo.environment
        let address = parsed["admin"] ?? environment["FAULTLINE_ADMIN"].flatMap { $0.isEmpty ? nil : $0 } ?? RulesCommand.defaultAdmin
        let token = parsed["token"] ?? environment["FAULTLINE_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var timeout = 10_000
        if let text = parsed["timeout-ms"] {
            guard let value = Int(text), (1...600_000).contains(value) else {
                throw UsageError("--timeout-ms expects 1...600000, got \(text)")
            }
            timeout = value
        }
        guard let client = RulesCommandClient(address: address, token: token, timeoutMs: timeout) else {
            throw UsageError("--admin expects http://host:port, got \(address)")
        }
        switch parsed["format"] ?? "text" {
        case "text": json = false
        case "json": json = true
        case let other: throw UsageError("--format expects text or json, got \(other)")
        }
        self.client = client
    }

    func list() -> ExitStatus {
        call("GET", "/rules") { RulesCommandTable.rules($0) }
    }

    func stats() -> ExitStatus {
        call("GET", "/stats") { RulesCommandTable.stats($0) }
    }

    func reset() -> ExitStatus {
        call("POST", "/rules/reset") { _ in ["counters reset"] }
    }

    /// `add FILE | - | JSON`; `position` is put into the rule's JSON.
    func add(_ source: String, position: String?) -> Result<ExitStatus, UsageError> {
        var body: Data
        switch Self.ruleBody(source) {
        case .success(let data): body = data
        case .failure(let error): return .failure(error)
        }
        if let position {
            guard position == "start" || position == "end" else {
                return .failure(UsageError("--position expects start or end, got \(position)"))
            }
            guard var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
                return .failure(UsageError("--position needs the rule to be a JSON object"))
            }
            object["position"] = position
            body = (try? JSONSerialization.data(withJSONObject: object)) ?? body
        }
        let name = Self.ruleName(body)
        return .success(call("POST", "/rules", body: body, refused: { status in
            // The API names its own verb (PUT); the shell user gets the commands.
            guard status == 409, let name else { return [] }
            return ["replace it whole with: faultline rules replace <the rule's JSON>, or remove it first: faultline rules rm \(name)"]
        }) { rule in
            ["added rule \(rule.name ?? "?")" + (position == "end" ? " (after the file's routes)" : " (before the file's routes)")]
        })
    }

    /// `replace FILE | - | JSON`: the rule of the same name, runtime or from the file, is
    /// replaced whole (PUT /rules/NAME); one that does not exist is added at the start.
    func replace(_ source: String) -> Result<ExitStatus, UsageError> {
        let body: Data
        switch Self.ruleBody(source) {
        case .success(let data): body = data
        case .failure(let error): return .failure(error)
        }
        guard let name = Self.ruleName(body) else {
            return .failure(UsageError("replace needs a JSON object with its \"name\" (the rule to replace)"))
        }
        return .success(call("PUT", "/rules/\(Self.escape(name))", body: body) { _ in ["replaced rule \(name)"] })
    }

    /// The rule's JSON from a file, standard input (-) or the argument itself.
    private static func ruleBody(_ source: String) -> Result<Data, UsageError> {
        if source == "-" {
            // readToEnd throws where readDataToEndOfFile would trap (a read a signal interrupts).
            do { return .success(try FileHandle.standardInput.readToEnd() ?? Data()) } catch {
                return .failure(UsageError("cannot read the rule from standard input: \(error)"))
            }
        }
        if source.trimmingCharacters(in: .whitespaces).hasPrefix("{") { return .success(Data(source.utf8)) }
        if let data = FileManager.default.contents(atPath: source) { return .success(data) }
        return .failure(UsageError("\(source): no such file (give a JSON file, - for standard input, or the JSON itself)"))
    }

    /// The `name` of a rule's JSON, if it has one.
    private static func ruleName(_ body: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["name"] as? String
    }

    func remove(_ name: String) -> ExitStatus {
        call("DELETE", "/rules/\(Self.escape(name))") { _ in ["removed rule \(name)"] }
    }

    /// `enable|disable NAME[/FAULT]`: the last "/" separates the fault.
    func setEnabled(_ on: Bool, _ target: String) -> ExitStatus {
        let verb = on ? "enable" : "disable"
        if let slash = target.lastIndex(of: "/"), slash != target.startIndex, target.index(after: slash) != target.endIndex {
            let rule = String(target[..<slash])
            let fault = String(target[target.index(after: slash)...])
            return call("POST", "/rules/\(Self.escape(rule))/faults/\(Self.escape(fault))/\(verb)") { answer in
                // A rule's switch is a master switch over its faults' own switches.
                guard on, answer.enabled == false else { return ["\(verb)d fault \(fault) of rule \(rule)"] }
                return ["enabled fault \(fault) of rule \(rule); the rule is disabled, so it fires once the rule is "
                    + "enabled (faultline rules enable \(rule))"]
            }
        }
        return call("POST", "/rules/\(Self.escape(target))/\(verb)") { _ in ["\(verb)d rule \(target)"] }
    }

    /// Sends a request; prints the answer (JSON as is, or `text`'s lines) and maps it to an
    /// exit status: 0 done, 1 refused or not reached. `refused` adds lines after a refusal's
    /// message, by status.
    private func call(_ method: String, _ path: String, body: Data? = nil, refused: (Int) -> [String] = { _ in [] },
                      text: (AdminAnswer) -> [String]) -> ExitStatus {
        let response: RulesCommandClient.Response
        do {
            response = try client.send(method, path, body: body)
        } catch {
            Console.err("faultline rules: \(error)")
            return .failure
        }
        let answer = AdminAnswer(decoding: response.body)
        guard (200..<300).contains(response.status) else {
            if json {
                Console.err(String(decoding: response.body, as: UTF8.self))
            } else {
                Console.err("faultline rules: \(answer.error ?? "the admin API answered \(response.status)")")
                for error in (answer.errors ?? []).dropFirst() {
                    Console.err("  \(error.field ?? ""): \(error.message ?? "")")
                }
                for line in refused(response.status) { Console.err("faultline rules: \(line)") }
            }
            return .failure
        }
        if json {
            if !response.body.isEmpty { Console.out(String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .newlines)) }
        } else {
            for line in text(answer) { Console.out(line) }
        }
        return .ok
    }

    /// `name` percent-encoded for one path segment.
    static func escape(_ name: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}
