import Foundation
import FaultlineConfig
import FaultlineTLS

/// The interception CA of each forward-proxy listener, minted on first use (as `faultline
/// certs init` does) and said on start-up, so the user knows which file a device must trust.
enum ForwardCA {
    /// Mints what is missing and prints where the CA is; false (after saying why) when a CA
    /// cannot be minted or is half there.
    static func prepare(_ config: ProxyConfig) -> Bool {
        var seen: Set<String> = []
        for listener in config.listeners {
            guard let forward = listener.forward, seen.insert(forward.caCertificatePath).inserted else { continue }
            do {
                let minted = try CertificateMinter.ensureCA(certificatePath: forward.caCertificatePath,
                                                            keyPath: forward.caKeyPath, now: Date())
                if minted {
                    Console.err("faultline: minted a development CA for HTTPS interception: \(forward.caCertificatePath) (key \(forward.caKeyPath)); trust \(forward.caCertificatePath) on the client or device")
                } else {
                    Console.err("faultline: intercepting HTTPS with the CA \(forward.caCertificatePath)")
                }
            } catch {
                Console.err("faultline: listeners: forward.ca: \(error.message)")
                return false
            }
        }
        return true
    }
}
