import FaultlineAppPins
import FaultlineTLS
import Foundation

/// A PKI minted per test: root → intermediate → leaf for api.example.com, a rotated leaf
/// (new key, same intermediate), a swapped intermediate (new key, same root) that issued a
/// leaf with the original leaf key, and a backup key never deployed.
struct AppPinFixture {
    let now = Date()
    let root: CertificateAuthority
    let intermediate: CertificateAuthority
    let swappedIntermediate: CertificateAuthority
    let leafKey: CertificateKey
    let leaf: CertificateLeaf
    let rotatedLeaf: CertificateLeaf
    let leafUnderSwappedIntermediate: CertificateLeaf
    let backupKey: CertificateKey

    init() throws {
        root = try CertificateMinter.rootCA(commonName: "App Root", key: try CertificateKey.generate(), validity: .days(30, from: now))
        intermediate = try CertificateMinter.intermediateCA(commonName: "App Intermediate", key: try CertificateKey.generate(),
                                                            issuer: root, validity: .days(30, from: now))
        swappedIntermediate = try CertificateMinter.intermediateCA(commonName: "App Intermediate 2", key: try CertificateKey.generate(),
                                                                   issuer: root, validity: .days(30, from: now))
        leafKey = try CertificateKey.generate()
        let names = ["api.example.com", "www.example.com", "a.b.example.com", "example.com"]
        leaf = try CertificateMinter.leaf(names: names, key: leafKey, issuer: intermediate, validity: .days(30, from: now))
        rotatedLeaf = try CertificateMinter.leaf(names: names, key: try CertificateKey.generate(), issuer: intermediate,
                                                 validity: .days(30, from: now))
        leafUnderSwappedIntermediate = try CertificateMinter.leaf(names: names, key: leafKey, issuer: swappedIntermediate,
                                                                  validity: .days(30, from: now))
        backupKey = try CertificateKey.generate()
    }

    /// Served without the root, verified up to it.
    func chain(_ leaf: CertificateLeaf) -> AppChain {
        AppChain(served: leaf.chain, verified: leaf.chain + [root.certificate])
    }

    var current: AppChain { chain(leaf) }
    var rotated: AppChain { chain(rotatedLeaf) }
    var swapped: AppChain { chain(leafUnderSwappedIntermediate) }

    var leafPin: String { leaf.certificate.pin.base64 }
    var rotatedLeafPin: String { rotatedLeaf.certificate.pin.base64 }
    var intermediatePin: String { intermediate.certificate.pin.base64 }
    var rootPin: String { root.certificate.pin.base64 }
    var backupPin: String { backupKey.publicKey.pin.base64 }

    /// A day relative to now, `yyyy-MM-dd` in UTC.
    func day(_ offset: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: now.addingTimeInterval(Double(offset) * 86_400))
    }
}
