import FaultlineIO
import Foundation

/// `faultline har export|clear`: saves or empties the HAR capture of a running proxy
/// through its admin API.
enum HARCommand {
    static let usage = """
    Usage:
      faultline har export [--output FILE] [options]
      faultline har clear  [options]

    Options:
      --admin URL       the admin API (default $FAULTLINE_ADMIN, else http://127.0.0.1:9901);
                        host:port works too
      --token TOKEN     bearer token (default $FAULTLINE_ADMIN_TOKEN)
      --output FILE     where export writes the document (default, or -, standard output);
                        a new file is created readable by its owner only
      --timeout-ms N    (default 10000)

    export writes the proxy's rolling capture of recent exchanges as a HAR 1.2 document
    for Chrome or Firefox dev tools, Charles or Proxyman, redacted exactly like the log.
    clear empties the capture. The proxy must have an admin API: config/default.json has one
    on 127.0.0.1:9901; the one-line mode (run --upstream URL) only with --admin ADDR, and it
    captures only then.

    Exit codes: 0 done; 1 the admin API could not be reached or refused (its error is
    printed), or the file could not be written; 2 usage error.
    """

    static func main(_ arguments: [String]) -> ExitStatus {
        guard let subcommand = arguments.first else {
            Console.err("faultline har: expected a subcommand\n\n\(usage)")
            return .usage
        }
        if ["--help", "-h", "help"].contains(subcommand) {
            Console.out(usage)
            return .ok
        }
        guard subcommand == "export" || subcommand == "clear" else {
            Console.err("faultline har: unknown subcommand \"\(subcommand)\"\n\n\(usage)")
            return .usage
        }
        let command = "faultline har \(subcommand)"
        let parsed: Arguments
        switch Arguments.forCommand(command, Array(arguments.dropFirst()), valued: ["admin", "token", "output", "timeout-ms"],
                                    maxPositionals: 0, usage: usage) {
        case .stop(let status): return status
        case .proceed(let arguments): parsed = arguments
        }
        let client: RulesCommandClient
        do {
            // The rules command's session already resolves --admin, --token, their
            // environment defaults and --timeout-ms; only its client is needed here.
            client = try RulesCommandSession(parsed).client
        } catch {
            Console.err("\(command): \(error)\n\n\(usage)")
            return .usage
        }
        if subcommand == "clear" {
            guard parsed["output"] == nil else {
                Console.err("\(command): --output applies to export only\n\n\(usage)")
                return .usage
            }
            return clear(client)
        }
        return export(client, to: parsed["output"] ?? "-")
    }

    private static func export(_ client: RulesCommandClient, to output: String) -> ExitStatus {
        guard let response = send(client, "GET", command: "export", accepting: 200...200) else { return .failure }
        if output == "-" {
            if let failure = write(response.body, to: BlockingIO.standardOutput) {
                Console.err("faultline har export: cannot write to standard output: \(failure)")
                return .failure
            }
            return .ok
        }
        let fd: Int32
        do {
            fd = try BlockingIO.create(path: output, permissions: 0o600)
        } catch {
            Console.err("faultline har export: cannot open \"\(output)\": \(error.reason)")
            return .failure
        }
        var failure = write(response.body, to: fd)
        do {
            try BlockingIO.close(fd)
        } catch {
            failure = failure ?? error.reason
        }
        if let failure {
            Console.err("faultline har export: cannot write \"\(output)\": \(failure)")
            return .failure
        }
        let entries = HARAnswer(decoding: response.body).log?.entries.map { "\(plural($0.count, "entry", "entries")), " } ?? ""
        Console.out("wrote \(output) (\(entries)\(response.body.count) bytes)")
        return .ok
    }

    private static func clear(_ client: RulesCommandClient) -> ExitStatus {
        guard let response = send(client, "DELETE", command: "clear", accepting: 200...299) else { return .failure }
        let cleared = HARAnswer(decoding: response.body).cleared.map { plural($0, "captured entry", "captured entries") }
        Console.out("cleared \(cleared ?? "the captured entries")")
        return .ok
    }

    /// Asks the admin API; nil, with the reason printed, when it cannot be reached or
    /// answers a status outside `accepted`.
    private static func send(_ client: RulesCommandClient, _ method: String, command: String,
                             accepting accepted: ClosedRange<Int>) -> RulesCommandClient.Response? {
        let response: RulesCommandClient.Response
        do {
            response = try client.send(method, "/har")
        } catch {
            Console.err("faultline har \(command): \(error)")
            return nil
        }
        guard accepted.contains(response.status) else {
            let reason = AdminAnswer(decoding: response.body).error ?? "the admin API answered \(response.status)"
            Console.err("faultline har \(command): \(reason)")
            return nil
        }
        return response
    }

    private static func plural(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }

    /// Writes all of `data`; the system's reason when it cannot.
    private static func write(_ data: Data, to fd: Int32) -> String? {
        do {
            try BlockingIO.writeAll(fd, [UInt8](data))
            return nil
        } catch {
            return error.reason
        }
    }
}
