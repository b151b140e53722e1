import FaultlineAppPins
import FaultlineConfig
import FaultlineTLS
import Foundation

/// Reads the chains of `--chain LABEL=SOURCE`: a PEM/DER file, host:port (a handshake), or
/// `admin[:URL]` (the chains the running proxy verified, one per pinned upstream).
struct PinsAppChainLoader {
    let ca: String?
    let token: String?
    let timeoutMs: Int

    func load(_ argument: PinsAppArguments.Labelled) throws(UsageError) -> [PinsAppChain] {
        let source = argument.value
        if source == "admin" || source.hasPrefix("admin:") {
            let url = source == "admin"
                ? ProcessInfo.processInfo.environment["FAULTLINE_ADMIN"] ?? RulesCommand.defaultAdmin
                : String(source.dropFirst(6))
            return try PinsAppAdminChains(url: url, token: token, timeoutMs: timeoutMs).load(label: argument.label)
        }
        if FileManager.default.fileExists(atPath: source) {
            return [try file(source, label: argument.label)]
        }
        guard let (host, port) = PinsCommandSupport.hostPort(source) else {
            throw UsageError("--chain \(argument.label)=\(source): no such file, not host:port and not admin[:URL]")
        }
        return [try live(host: host, port: port, label: argument.label, source: source)]
    }

    /// Served = file order; verified = the same when it ends at a self-signed root, else
    /// the path OpenSSL builds to `--ca` or the system store.
    private func file(_ path: String, label: String) throws(UsageError) -> PinsAppChain {
        let served: [Certificate]
        do {
            served = try Certificate.loadAll(path: path)
        } catch {
            throw UsageError("--chain \(label)=\(path): \(error.message)")
        }
        guard served.last?.isSelfSigned != true else {
            return PinsAppChain(label: label, source: path, kind: .file, host: nil, trust: "ends at a self-signed root",
                                chain: AppChain(served: served))
        }
        let verified: [Certificate]
        do {
            verified = try CertificatePathBuilder.verifiedPath(served, caFile: ca)
        } catch {
            let target = error.message.hasPrefix("no verified path") ? " to \(anchors)" : ""
            let hint = ca == nil ? "; give the CA that anchors it with --ca" : ""
            throw UsageError("--chain \(label)=\(path): \(error.message)\(target)\(hint)")
        }
        let trust = "verified with \(anchors)"
        return PinsAppChain(label: label, source: path, kind: .file, host: nil, trust: trust,
                            chain: AppChain(served: served, verified: verified))
    }

    /// A handshake; the chain must verify, since every platform checks pins on the verified path.
    private func live(host: String, port: UInt16, label: String, source: String) throws(UsageError) -> PinsAppChain {
        let result: TLSProbeResult
        do {
            result = try TLSProbe.fetchChain(host: host, port: port, caFile: ca, timeoutMs: timeoutMs)
        } catch {
            throw UsageError("--chain \(label)=\(source): \(error)")
        }
        if let why = result.verifyError {
            throw UsageError("--chain \(label)=\(source): the chain does not verify against \(anchors) (\(why)); pins are checked on the verified chain\(ca == nil ? ": give the CA that anchors it with --ca" : "")")
        }
        do {
            let served = try PinsCommandSupport.certificates(result.servedChainDER)
            let verified = try PinsCommandSupport.certificates(result.verifiedChainDER)
            return PinsAppChain(label: label, source: source, kind: .live, host: HostPattern.normalize(host),
                                trust: "verified with \(anchors)", chain: AppChain(served: served, verified: verified))
        } catch {
            throw UsageError("--chain \(label)=\(source): \(error)")
        }
    }

    private var anchors: String {
        ca.map { "--ca \($0)" } ?? "the system trust store"
    }
}
