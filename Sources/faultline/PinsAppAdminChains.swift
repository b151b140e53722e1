import FaultlineAppPins
import FaultlineConfig
import FaultlineTLS
import Foundation

/// The chains a running proxy has verified, from its admin API (`GET /pins`): per pinned
/// upstream, the last verified chain (`last_chain`, leaf first, with each certificate's
/// position, subject and pin) and the name it was verified for (`server_name`). The proxy
/// reports the verified path only, so served = verified for these chains.
struct PinsAppAdminChains {
    private struct Answer: Decodable {
        struct Entry: Decodable {
            let position: String
            let subject: String
            let pin: String
        }

        struct Upstream: Decodable {
            let serverName: String?
            let lastChain: [Entry]?

            private enum CodingKeys: String, CodingKey {
                case serverName = "server_name"
                case lastChain = "last_chain"
            }
        }

        let upstreams: [String: Upstream]
    }

    let url: String
    let token: String?
    let timeoutMs: Int

    /// One chain per upstream that has completed a pinned handshake, labelled `LABEL/UPSTREAM`.
    func load(label: String) throws(UsageError) -> [PinsAppChain] {
        guard let client = RulesCommandClient(address: url, token: token, timeoutMs: timeoutMs) else {
            throw UsageError("--chain \(label)=admin:\(url): expected http://host:port")
        }
        let response: RulesCommandClient.Response
        do {
            response = try client.send("GET", "/pins")
        } catch {
            throw UsageError("--chain \(label)=admin:\(url): \(error)")
        }
        guard response.status == 200, let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else {
            throw UsageError("--chain \(label)=admin:\(url): GET /pins answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
        var chains: [PinsAppChain] = []
        for (upstream, report) in answer.upstreams.sorted(by: { $0.key < $1.key }) {
            guard let last = report.lastChain, !last.isEmpty else { continue }
            var certificates: [AppChainCertificate] = []
            for entry in last {
                guard let position = CertificatePosition(rawValue: entry.position), let pin = try? PinParser.parse(entry.pin) else {
                    throw UsageError("--chain \(label)=admin:\(url): upstream \(upstream): unreadable certificate entry \(entry.position) \(entry.pin)")
                }
                certificates.append(AppChainCertificate(pin: pin, position: position, subject: entry.subject))
            }
            chains.append(PinsAppChain(label: "\(label)/\(upstream)", source: "\(client.url) upstream \(upstream)", kind: .admin,
                                       host: report.serverName.map(HostPattern.normalize), trust: "as the proxy verified it",
                                       chain: AppChain(served: certificates, verified: certificates)))
        }
        guard !chains.isEmpty else {
            throw UsageError("--chain \(label)=admin:\(url): the proxy has verified no pinned upstream chain yet (GET /pins lists none with a last_chain); send a request through each pinned upstream first")
        }
        return chains
    }
}
