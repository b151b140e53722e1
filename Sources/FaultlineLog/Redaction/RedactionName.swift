/// Name normalisation shared by every redaction rule: ASCII lowercase with `-` and `_`
/// removed, so `X-Api-Key`, `x_api_key` and `XAPIKEY` are one name and `accessToken`
/// matches `access_token`.
enum RedactionName {
    /// The normalised form of `name`.
    static func normalize(_ name: some Collection<UInt8>) -> String {
        // Written straight into the string's storage: no intermediate array per header.
        String(unsafeUninitializedCapacity: name.count) { buffer in
            var count = 0
            for byte in name where byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") {
                buffer[count] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                count += 1
            }
            return count
        }
    }

    /// The normalised form of `name`.
    static func normalize(_ name: String) -> String {
        // Through the contiguous bytes: the generic UTF8View path is several times slower.
        var copy = name
        return copy.withUTF8 { normalize($0) }
    }

    /// Calls `body` with each normalised part of a parameter or field name: ASCII lowercase,
    /// `-` and `_` removed (so camelCase, snake_case and kebab-case spell one name), control
    /// characters (NUL…) dropped, and the name split at `[` and `]`, as Rails and PHP nest
    /// form names (`user[password]` gives `user` and `password`; `token[]` gives `token`).
    /// The parts live in a temporary buffer (on the stack for short names).
    static func forEachPart(of name: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, name.count)) { buffer in
            var count = 0
            var partStart = 0
            for byte in name {
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "]"):
                    if count > partStart { body(UnsafeBufferPointer(rebasing: buffer[partStart..<count])) }
                    partStart = count
                case UInt8(ascii: "-"), UInt8(ascii: "_"), 0..<0x20, 0x7F:
                    continue
                default:
                    buffer[count] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                    count += 1
                }
            }
            if count > partStart { body(UnsafeBufferPointer(rebasing: buffer[partStart..<count])) }
        }
    }

    /// `name` in ASCII lowercase, for the redacted-field list.
    static func lower(_ name: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: name.count) { buffer in
            for (index, byte) in name.enumerated() { buffer[index] = byte >= 65 && byte <= 90 ? byte + 32 : byte }
            return name.count
        }
    }

    /// `name` in ASCII lowercase; the same string when it has no uppercase letter.
    static func lower(_ name: String) -> String {
        var copy = name
        return copy.withUTF8 { bytes in bytes.contains { $0 >= 65 && $0 <= 90 } ? lower(bytes) : name }
    }
}
