import FaultlineTLS
import Foundation

extension PinsCommand {
    /// `faultline pins compute <file | host:port> [--emit PLATFORM …]`.
    static func compute(_ arguments: [String]) -> ExitStatus {
        let parsed: Arguments
        let json: Bool
        let timeout: Int
        var snippet: PinSnippetCommand.Request?
        do {
            parsed = try Arguments(arguments, valued: ["format", "ca", "timeout-ms", "emit", "position", "expires", "host"],
                                   flags: ["help"])
            json = try PinsCommandSupport.wantsJSON(parsed)
            timeout = try PinsCommandSupport.timeout(parsed)
            if parsed["emit"] != nil {
                snippet = try PinSnippetCommand.request(parsed, now: Date())
            } else if let option = ["position", "expires", "host"].first(where: { parsed[$0] != nil }) {
                throw UsageError("--\(option) goes with --emit")
            }
        } catch {
            Console.err("faultline pins compute: \(error)\n\n\(computeUsage)")
            return .usage
        }
        if parsed.flags.contains("help") {
            Console.out(computeUsage)
            return .ok
        }
        guard parsed.positionals.count == 1, let target = parsed.positionals.first else {
            Console.err("faultline pins compute: expected one <file | host:port>\n\n\(computeUsage)")
            return .usage
        }
        if FileManager.default.fileExists(atPath: target) {
            guard parsed["ca"] == nil else {
                Console.err("faultline pins compute: --ca applies to host:port only")
                return .usage
            }
            if let snippet { return PinSnippetCommand.emit(file: target, snippet) }
            return computeFile(target, json: json)
        }
        guard let (host, port) = PinsCommandSupport.hostPort(target) else {
            Console.err("faultline pins compute: \(target): no such file, and not host:port")
            return .usage
        }
        return computeLive(host: host, port: port, ca: parsed["ca"], timeout: timeout, json: json, snippet: snippet)
    }

    private static func computeFile(_ path: String, json: Bool) -> ExitStatus {
        let input: InspectedInput
        do {
            input = try CertificateInspector.inspect(path: path)
        } catch {
            Console.err("faultline pins compute: \(error)")
            return .usage
        }
        let now = Date()
        let positions = CertificatePosition.positions(of: input.certificates)
        if json {
            var object: [String: Any] = ["file": path, "kind": input.kind.rawValue, "encoding": input.encoding]
            object["certificates"] = input.certificates.enumerated().map {
                PinsCommandSupport.json($1, index: $0, position: positions[$0], now: now)
            }
            if let key = input.publicKey { object["key"] = key.algorithm; object["pin"] = key.spkiPin }
            if let subject = input.requestSubject { object["subject"] = subject }
            Console.out(PinsCommandSupport.render(object))
            return .ok
        }
        if let key = input.publicKey {
            Console.out("\(path): \(input.kind.rawValue) (\(input.encoding)), \(key.algorithm)")
            if let subject = input.requestSubject { Console.out("  subject:  \(subject)") }
            Console.out("  pin:      sha256/\(key.spkiPin)")
            return .ok
        }
        let count = input.certificates.count
        Console.out("\(path): \(input.kind.rawValue) (\(input.encoding)), \(count) certificate\(count == 1 ? "" : "s")")
        for (index, certificate) in input.certificates.enumerated() {
            PinsCommandSupport.text(certificate, index: index, position: positions[index].rawValue, now: now).forEach(Console.out)
        }
        return .ok
    }

    private static func computeLive(host: String, port: UInt16, ca: String?, timeout: Int, json: Bool,
                                    snippet: PinSnippetCommand.Request?) -> ExitStatus {
        let result: TLSProbeResult
        let served: [Certificate]
        let verified: [Certificate]
        do {
            result = try TLSProbe.fetchChain(host: host, port: port, caFile: ca, timeoutMs: timeout)
        } catch {
            Console.err("faultline pins compute: \(error)")
            return .usage
        }
        do {
            served = try PinsCommandSupport.certificates(result.servedChainDER)
            verified = try PinsCommandSupport.certificates(result.verifiedChainDER)
        } catch {
            Console.err("faultline pins compute: \(host):\(port): \(error)")
            return .usage
        }
        if let snippet {
            return PinSnippetCommand.emit(live: result, served: served, verified: verified, host: host, target: "\(host):\(port)",
                                          snippet)
        }
        let now = Date()
        let positions = CertificatePosition.positions(of: served)
        // The trust anchor a verified chain ends in is usually not served: show it too.
        let anchors = verified.filter { !served.contains($0) }
        if json {
            let chain = served.enumerated().map { PinsCommandSupport.json($1, index: $0, position: positions[$0], now: now) }
            let verifiedPositions = CertificatePosition.positions(of: verified)
            let verifiedChain = verified.enumerated().map {
                PinsCommandSupport.json($1, index: $0, position: verifiedPositions[$0], now: now)
            }
            Console.out(PinsCommandSupport.render([
                "host": host, "port": Int(port), "peer": result.peerAddress, "protocol": result.protocolVersion,
                "verified": result.verifyError == nil, "verify_error": result.verifyError ?? NSNull(),
                "served_chain": chain, "verified_chain": verifiedChain,
            ] as [String: Any]))
            return .ok
        }
        Console.out("\(host):\(port) (\(result.peerAddress)), \(result.protocolVersion), served \(served.count) certificate\(served.count == 1 ? "" : "s")")
        Console.out(result.verifyError.map { "chain NOT verified: \($0)" } ?? "chain verified (\(ca.map { "--ca \($0)" } ?? "system trust store"))")
        for (index, certificate) in served.enumerated() {
            PinsCommandSupport.text(certificate, index: index, position: positions[index].rawValue, now: now).forEach(Console.out)
        }
        for (offset, anchor) in anchors.enumerated() {
            PinsCommandSupport.text(anchor, index: served.count + offset, position: "root (trust store, not served)", now: now)
                .forEach(Console.out)
        }
        return .ok
    }
}
