/// Narrows a route lookup to the routes a request could match. Every route is filed under
/// one `RouteIndexKey` (first path segment, exact host, first byte of a partial first
/// segment, or always-check); a lookup merges the few candidate lists by route position
/// and returns the first candidate that fully matches, so first-match-in-order is kept.
struct RouteIndex: Sendable {
    /// Matcher positions, grouped by list; each list ascends.
    let entries: [Int]
    /// Routes filed under `.always`.
    let always: Range<Int>
    /// Routes filed under `.segment`, by the segment's bytes.
    let segments: RouteIndexMap
    /// Routes filed under `.host`, by the lowercased host.
    let hosts: RouteIndexMap
    /// Routes filed under `.initial`, by byte: 256 ranges, or none when no route has one.
    let initials: [Range<Int>]

    /// Files every matcher (by position) under its key.
    init(matchers: [CompiledMatcher], arena: UnsafeRawBufferPointer) {
        var always: [Int] = []
        var segmentLists: [[UInt8]: (span: ByteSpan, positions: [Int])] = [:]
        var segmentOrder: [[UInt8]] = []
        var hostLists: [[UInt8]: (span: ByteSpan, positions: [Int])] = [:]
        var hostOrder: [[UInt8]] = []
        var initialLists = [[Int]](repeating: [], count: 256)
        for (position, matcher) in matchers.enumerated() {
            switch RouteIndexKey(matcher, arena: arena) {
            case .always:
                always.append(position)
            case .initial(let byte):
                initialLists[Int(byte)].append(position)
            case .segment(let span):
                RouteIndex.file(position, span, arena: arena, in: &segmentLists, order: &segmentOrder)
            case .host(let span):
                RouteIndex.file(position, span, arena: arena, in: &hostLists, order: &hostOrder)
            }
        }
        var entries = always
        self.always = 0..<always.count
        self.segments = RouteIndex.layOut(segmentOrder, segmentLists, arena: arena, ignoringCase: false, into: &entries)
        self.hosts = RouteIndex.layOut(hostOrder, hostLists, arena: arena, ignoringCase: true, into: &entries)
        if initialLists.allSatisfy(\.isEmpty) {
            self.initials = []
        } else {
            self.initials = initialLists.map { list in
                let start = entries.count
                entries.append(contentsOf: list)
                return start..<entries.count
            }
        }
        self.entries = entries
    }

    /// Appends `position` to the list of the key with `span`'s bytes.
    private static func file(
        _ position: Int, _ span: ByteSpan, arena: UnsafeRawBufferPointer,
        in lists: inout [[UInt8]: (span: ByteSpan, positions: [Int])], order: inout [[UInt8]]
    ) {
        let key = Array(span.bytes(in: arena))
        if lists[key] == nil {
            lists[key] = (span, [])
            order.append(key)
        }
        lists[key]?.positions.append(position)
    }

    /// Appends each key's list to `entries` and maps the keys to their ranges.
    private static func layOut(
        _ order: [[UInt8]], _ lists: [[UInt8]: (span: ByteSpan, positions: [Int])],
        arena: UnsafeRawBufferPointer, ignoringCase: Bool, into entries: inout [Int]
    ) -> RouteIndexMap {
        var buckets: [(key: ByteSpan, range: Range<Int>)] = []
        for key in order {
            guard let list = lists[key] else { continue }
            let start = entries.count
            entries.append(contentsOf: list.positions)
            buckets.append((list.span, start..<entries.count))
        }
        return RouteIndexMap(buckets, arena: arena, ignoringCase: ignoringCase)
    }
}
