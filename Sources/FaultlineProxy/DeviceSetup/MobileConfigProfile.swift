import FaultlineTLS
import Foundation

/// An iOS configuration profile (`.mobileconfig`) that installs a CA certificate: a plist
/// whose one payload is `com.apple.security.root` holding the certificate's DER. Pure: the
/// certificate in, the profile's bytes out. The profile is unsigned (iOS shows it as "Not
/// Verified", as it does mitmproxy's and Charles's) and its identifiers and UUIDs are derived
/// from the certificate's SHA-256 fingerprint, so the same CA always gives the same profile
/// and a new CA a different one.
enum MobileConfigProfile {
    /// The name shown on the device, in Settings and in the install sheet.
    static let displayName = "Faultline development CA"
    /// The reverse-DNS prefix of the payload identifiers.
    static let identifierPrefix = "dev.faultline.ca"

    /// The profile for `certificate` as an XML plist (UTF-8).
    static func data(for certificate: Certificate) throws -> [UInt8] {
        let fingerprint = hex(MessageDigest.hash(certificate.derBytes, .sha256))
        let short = String(fingerprint.prefix(16))
        let payload: [String: Any] = [
            "PayloadType": "com.apple.security.root",
            "PayloadVersion": 1,
            "PayloadIdentifier": "\(identifierPrefix).\(short).root",
            "PayloadUUID": NameBasedUUID.make(name: "faultline-ca-root/\(fingerprint)"),
            "PayloadDisplayName": displayName,
            "PayloadDescription": "Adds the Faultline development CA (\(certificate.subject)) as a root certificate.",
            "PayloadCertificateFileName": "faultline-ca.cer",
            "PayloadContent": Data(certificate.derBytes),
        ]
        let profile: [String: Any] = [
            "PayloadType": "Configuration",
            "PayloadVersion": 1,
            "PayloadIdentifier": "\(identifierPrefix).\(short)",
            "PayloadUUID": NameBasedUUID.make(name: "faultline-ca-profile/\(fingerprint)"),
            "PayloadDisplayName": displayName,
            "PayloadDescription": "Lets this device trust HTTPS intercepted by Faultline, a debugging proxy. After installing, "
                + "turn on full trust for it in Settings → General → About → Certificate Trust Settings. "
                + "Certificate SHA-256: \(certificate.sha256Fingerprint).",
            "PayloadOrganization": "Faultline",
            "PayloadRemovalDisallowed": false,
            "PayloadContent": [payload],
        ]
        return Array(try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }
}
