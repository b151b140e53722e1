import FaultlineTLS

/// RFC 9562 §5.5 name-based UUIDs (version 5, SHA-1): the same namespace and name always give
/// the same UUID, so a profile generated twice for one CA certificate is the same profile
/// (iOS replaces an installed profile with the same identifier and UUID instead of adding a
/// second one). Python's `uuid.uuid5(namespace, name)` computes the same value.
enum NameBasedUUID {
    /// Faultline's namespace for the UUIDs of its device-setup files (a random version 4 UUID,
    /// fixed forever: changing it would make every installed profile look new).
    static let faultlineNamespace: [UInt8] = [
        0x6f, 0x2c, 0x1a, 0x8e, 0x4b, 0x7d, 0x4e, 0x3a, 0x9c, 0x51, 0x0d, 0x8e, 0x2f, 0x7a, 0x4b, 0x19,
    ]

    /// The UUID of `name` in `namespace` (16 bytes), as uppercase hex in 8-4-4-4-12 groups,
    /// the form Apple's own profiles use.
    static func make(namespace: [UInt8] = faultlineNamespace, name: String) -> String {
        var bytes = Array(MessageDigest.hash(namespace + Array(name.utf8), .sha1).prefix(16))
        // SHA-1 gives 20 bytes; an OpenSSL failure gives none, and zeros are still well formed.
        if bytes.count < 16 { bytes += [UInt8](repeating: 0, count: 16 - bytes.count) }
        bytes[6] = (bytes[6] & 0x0f) | 0x50  // version 5
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // the RFC 9562 variant
        return format(bytes)
    }

    /// `bytes` (16) as `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
    static func format(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append("-") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }
}
