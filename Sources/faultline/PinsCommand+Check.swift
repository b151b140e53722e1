import FaultlineConfig
import FaultlineTLS
import Foundation

extension PinsCommand {
    /// `faultline pins check <host:port> --pins … [--candidate …]`: a CI gate.
    static func check(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        let json: Bool
        let timeout: Int
        let live: [SPKIPinValue]
        var candidate: [SPKIPinValue] = []
        do {
            parsed = try Arguments(arguments, valued: ["format", "ca", "timeout-ms", "pins", "candidate"],
                                   flags: ["help", "require-candidate"])
            if parsed.flags.contains("help") {
                Console.out(checkUsage)
                return .ok
            }
            json = try PinsCommandSupport.wantsJSON(parsed)
            timeout = try PinsCommandSupport.timeout(parsed)
            guard parsed["pins"] != nil else { throw UsageError("--pins PIN,... is required") }
            guard parsed.positionals.count == 1 else { throw UsageError("expected one host:port") }
        } catch {
            Console.err("faultline pins check: \(error)\n\n\(checkUsage)")
            return .usage
        }
        do {
            live = try PinsCommandSupport.pins(parsed["pins"] ?? "", option: "pins")
            if let text = parsed["candidate"] { candidate = try PinsCommandSupport.pins(text, option: "candidate") }
        } catch {
            Console.err("faultline pins check: \(error)")
            return .usage
        }
        let target = parsed.positionals[0]
        guard let (host, port) = PinsCommandSupport.hostPort(target) else {
            Console.err("faultline pins check: expected host:port, got \"\(target)\"")
            return .usage
        }
        let result: TLSProbeResult
        let served: [Certificate]
        let verified: [Certificate]
        do {
            result = try TLSProbe.fetchChain(host: host, port: port, caFile: parsed["ca"], timeoutMs: timeout)
        } catch {
            Console.err("faultline pins check: \(error)")
            return .usage
        }
        do {
            served = try PinsCommandSupport.certificates(result.servedChainDER)
            verified = try PinsCommandSupport.certificates(result.verifiedChainDER)
        } catch {
            Console.err("faultline pins check: \(target): \(error)")
            return .usage
        }
        let report = PinsCheckReport(target: target, ca: parsed["ca"], probe: result, served: served, verified: verified,
                                     pins: PinSet(live: live, candidate: candidate), now: Date(),
                                     requireCandidate: parsed.flags.contains("require-candidate"))
        if json {
            Console.out(PinsCommandSupport.render(report.json))
        } else {
            report.lines.forEach(Console.out)
        }
        return report.status
    }
}
