import Synchronization

/// Request ids: taken from a well-formed `X-Request-ID`, or generated as 16 lowercase hex
/// characters (a process-unique counter mixed with a random key by SplitMix64: no
/// syscall and no lock per request).
public enum RequestID {
    private static let counter = Atomic<UInt64>(0)
    private static let key = UInt64.random(in: UInt64.min...UInt64.max)

    /// A new id, 16 hex characters.
    public static func generate() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        var mixed = key &+ count &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        // Sixteen ASCII bytes written straight into the string: no array per request.
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: (mixed >> (UInt64(index) * 4)) & 0xF)
                buffer[15 - index] = digit < 10 ? 48 + digit : 87 + digit
            }
            return 16
        }
    }

    /// `header` when it is a usable id (1...128 characters of `A-Z a-z 0-9 - _ . : / + =`),
    /// otherwise a new id; what is returned is what the proxy forwards as X-Request-ID.
    public static func accept(_ header: String?) -> String {
        guard let header, isValid(header) else { return generate() }
        return header
    }

    /// Whether `value` may be used as a request id as it is.
    public static func isValid(_ value: String) -> Bool {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= 128 else { return false }
        return bytes.allSatisfy { byte in
            ByteSearch.isNameByte(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "=")
        }
    }
}
