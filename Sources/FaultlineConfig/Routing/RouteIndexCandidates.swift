/// The candidate lists of one lookup (ranges of a `RouteIndex`'s ascending entry lists),
/// consumed as one list merged by matcher position. A stack value: no allocation.
struct RouteIndexCandidates {
    /// Routes checked for every request.
    var always: Range<Int>
    /// Routes filed under the request path's first segment.
    var segment: Range<Int> = 0..<0
    /// Routes filed under the request's host.
    var host: Range<Int> = 0..<0
    /// Routes filed under the first byte of the request path's first segment.
    var initial: Range<Int> = 0..<0

    /// Removes and returns the smallest matcher position left in any list, or nil when
    /// all are exhausted. The lists are disjoint, so no position comes out twice.
    @inline(__always)
    mutating func popSmallest(_ entries: UnsafeBufferPointer<Int>) -> Int? {
        var smallest = Int.max
        var which = 0
        if !always.isEmpty { smallest = entries[always.lowerBound]; which = 1 }
        if !segment.isEmpty && entries[segment.lowerBound] < smallest { smallest = entries[segment.lowerBound]; which = 2 }
        if !host.isEmpty && entries[host.lowerBound] < smallest { smallest = entries[host.lowerBound]; which = 3 }
        if !initial.isEmpty && entries[initial.lowerBound] < smallest { smallest = entries[initial.lowerBound]; which = 4 }
        switch which {
        case 1: always = (always.lowerBound + 1)..<always.upperBound
        case 2: segment = (segment.lowerBound + 1)..<segment.upperBound
        case 3: host = (host.lowerBound + 1)..<host.upperBound
        case 4: initial = (initial.lowerBound + 1)..<initial.upperBound
        default: return nil
        }
        return smallest
    }
}
