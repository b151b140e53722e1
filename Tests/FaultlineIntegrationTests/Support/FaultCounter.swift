import Synchronization

/// A counter shared between concurrent test tasks (an `Atomic` in a class, so closures can
/// capture it).
final class FaultCounter: Sendable {
    private let storage = Atomic<Int>(0)

    var value: Int { storage.load(ordering: .acquiring) }
    func add(_ delta: Int) { storage.add(delta, ordering: .acquiringAndReleasing) }
}
