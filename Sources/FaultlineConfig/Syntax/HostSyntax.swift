/// Syntax checks for host names, kept permissive (underscores are common in internal
/// DNS) but strict enough to catch ports, spaces and URL pieces pasted into the field.
enum HostSyntax {
    /// Dot-separated non-empty labels of letters, digits, `-` and `_`, at most 253 bytes.
    static func isHostName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var labelLength = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return false }
                labelLength = 0
                continue
            }
            guard isLabelByte(byte) else { return false }
            labelLength += 1
            guard labelLength <= 63 else { return false }
        }
        return labelLength > 0
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
