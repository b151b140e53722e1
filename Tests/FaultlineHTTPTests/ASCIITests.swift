import Testing
import FaultlineHTTP

/// `ASCII.isASCII` reads eight bytes at a time: a byte of 0x80 or above anywhere, in a whole
/// word or in the tail, makes it false.
@Suite("ASCII byte checks")
struct ASCIITests {
    @Test func aHighByteAtAnyPositionOfAnyLengthIsFound() {
        for length in 0...40 {
            let plain = [UInt8]((0..<length).map { UInt8(truncatingIfNeeded: 0x20 + $0 % 0x5F) })
            #expect(plain.withUnsafeBytes(ASCII.isASCII), "length \(length)")
            for position in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var bytes = plain
                    bytes[position] = high
                    #expect(!bytes.withUnsafeBytes(ASCII.isASCII), "length \(length), 0x\(String(high, radix: 16)) at \(position)")
                }
            }
        }
    }

    @Test func everyByteBelow0x80IsASCIIAndNoneAbove() {
        for byte in UInt8.min...UInt8.max {
            let bytes = [UInt8](repeating: byte, count: 11)
            #expect(bytes.withUnsafeBytes(ASCII.isASCII) == (byte < 0x80), "byte \(byte)")
        }
    }
}
