/// Identifies a scheduled timer so it can be cancelled.
public struct TimerID: Hashable, Sendable {
    let value: UInt64
}

/// A binary min-heap of deadlines; cancelled timers are dropped lazily when they surface.
struct TimerQueue {
    private struct Entry {
        var deadline: UInt64
        var id: UInt64
    }

    private var heap: [Entry] = []
    private var callbacks: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    var isEmpty: Bool { callbacks.isEmpty }

    mutating func schedule(at deadline: UInt64, _ callback: @escaping () -> Void) -> TimerID {
        let id = nextID
        nextID &+= 1
        callbacks[id] = callback
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return TimerID(value: id)
    }

    mutating func cancel(_ timer: TimerID) {
        callbacks.removeValue(forKey: timer.value)
    }

    /// The earliest live deadline, if any.
    mutating func nextDeadline() -> UInt64? {
        while let first = heap.first {
            if callbacks[first.id] != nil { return first.deadline }
            popFirst()
        }
        return nil
    }

    /// Removes and returns the callbacks whose deadline is at or before `now`.
    mutating func popExpired(now: UInt64) -> [() -> Void] {
        var expired: [() -> Void] = []
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let callback = callbacks.removeValue(forKey: first.id) {
                expired.append(callback)
            }
        }
        return expired
    }

    private mutating func popFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count && heap[left + 1].deadline < heap[left].deadline { smallest = left + 1 }
            guard heap[smallest].deadline < heap[parent].deadline else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
