/// Builds the single byte array that holds every pattern of a route table, so the hot
/// path reads patterns through one borrowed buffer instead of one array per pattern.
struct PatternArena {
    private(set) var bytes: [UInt8] = []
    private(set) var methodSpans: [ByteSpan] = []

    /// Appends `pattern` and returns where it lives.
    mutating func add(_ pattern: [UInt8]) -> ByteSpan {
        let span = ByteSpan(start: bytes.count, count: pattern.count)
        bytes.append(contentsOf: pattern)
        return span
    }

    /// Appends a route's methods and returns their index range in `methodSpans`.
    mutating func addMethods(_ methods: [String]) -> Range<Int> {
        let first = methodSpans.count
        for method in methods {
            methodSpans.append(add(Array(method.utf8)))
        }
        return first..<methodSpans.count
    }
}
