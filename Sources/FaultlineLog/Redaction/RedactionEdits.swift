/// The output of one redaction pass over `input`: scanners report the ranges they replace,
/// left to right, and the input is copied only up to each replaced range, so a pass that
/// finds nothing (most headers, most string values) allocates nothing.
struct RedactionEdits {
    /// The bytes being redacted; ranges are indices of this slice.
    let input: ArraySlice<UInt8>
    /// The redacted bytes up to `copied`.
    private var out: [UInt8] = []
    /// The input index up to which `out` holds the output.
    private var copied: Int
    /// What was redacted, in order.
    var fields: [String] = []
    /// Whether any range was replaced.
    private(set) var changed = false

    init(_ input: ArraySlice<UInt8>) {
        self.input = input
        copied = input.startIndex
    }

    /// Replaces `range` of the input with `bytes`, listing `field` (when not nil).
    mutating func replace(_ range: Range<Int>, with bytes: some Collection<UInt8>, field: String?) {
        // Scanners move left to right; a range reaching back into what is already written
        // replaces only its unwritten part (the earlier part was replaced already).
        let lower = max(range.lowerBound, copied)
        let upper = max(lower, min(range.upperBound, input.endIndex))
        if !changed {
            out.reserveCapacity(input.count + 16)
            changed = true
        }
        out.append(contentsOf: input[copied..<lower])
        out.append(contentsOf: bytes)
        copied = upper
        if let field { fields.append(field) }
    }

    /// Replaces `range` with the placeholder.
    mutating func redact(_ range: Range<Int>, field: String) {
        replace(range, with: ByteSearch.placeholder, field: field)
    }

    /// The whole output: the input with every replacement made.
    func result() -> [UInt8] {
        guard changed else { return Array(input) }
        var bytes = out
        bytes.append(contentsOf: input[copied...])
        return bytes
    }
}
