internal import FoundationEssentials

/// One SPKI pin: the SHA-256 digest of a certificate's DER SubjectPublicKeyInfo, the value
/// apps ship as `sha256/<base64>`. Two pins are equal when their digests are.
public struct SPKIPinValue: Hashable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let digest: [UInt8]

    /// The number of bytes in a SHA-256 digest.
    public static let digestLength = 32

    /// Wraps a digest; nil unless it is exactly 32 bytes.
    public init?(digest: [UInt8]) {
        guard digest.count == SPKIPinValue.digestLength else { return nil }
        self.digest = digest
    }

    /// The digest in standard base64 with padding (44 characters).
    public var base64: String {
        Data(digest).base64EncodedString()
    }

    /// `sha256/<base64>`, the OkHttp spelling, used in every message and log.
    public var description: String {
        "sha256/\(base64)"
    }
}
