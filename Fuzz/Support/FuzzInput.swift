/// Reads a fuzz input as a sequence of choices: small integers, flags and byte strings.
/// Past the end every read returns zero or empty, so any input (even empty) is a valid
/// sequence of choices and the mutator's edits map onto nearby structures.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Wraps the input libFuzzer passes.
    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Wraps a byte array (reproducers in tests).
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isEmpty: Bool { position >= bytes.count }

    /// The next byte, 0 past the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A flag from the low bit of the next byte.
    mutating func flag() -> Bool {
        byte() & 1 == 1
    }

    /// An index below `count` (which must be positive).
    mutating func choose(_ count: Int) -> Int {
        Int(byte()) % max(1, count)
    }

    /// One element of `options` (which must not be empty).
    mutating func pick<T>(_ options: [T]) -> T {
        options[choose(options.count)]
    }

    /// Eight bytes as a signed integer (little-endian), any value including the extremes.
    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return Int64(bitPattern: value)
    }

    /// A length-prefixed byte string of at most 255 bytes.
    mutating func chunk() -> [UInt8] {
        let count = min(Int(byte()), bytes.count - min(position, bytes.count))
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    /// A length-prefixed string (invalid UTF-8 becomes U+FFFD, as in the proxy).
    mutating func string() -> String {
        String(decoding: chunk(), as: UTF8.self)
    }

    /// Every byte not read yet.
    mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }
}
