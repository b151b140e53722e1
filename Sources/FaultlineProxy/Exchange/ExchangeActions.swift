/// The actions one event produces, in order: at most `capacity`, stored inline so that the
/// hot path (every body part) allocates nothing.
struct ExchangeActions: Sequence, Equatable {
    /// The most actions any event produces.
    static let capacity = 6

    private var a0, a1, a2, a3, a4, a5: ExchangeAction?
    /// How many actions there are.
    private(set) var count = 0

    /// No action (the event was ignored, or changed only the state).
    init() {}

    /// Whether there is no action.
    var isEmpty: Bool { count == 0 }

    /// Adds an action after the others.
    @inline(__always)
    mutating func append(_ action: ExchangeAction) {
        switch count {
        case 0: a0 = action
        case 1: a1 = action
        case 2: a2 = action
        case 3: a3 = action
        case 4: a4 = action
        case 5: a5 = action
        default: preconditionFailure("an exchange event produced more than \(Self.capacity) actions")
        }
        count += 1
    }

    /// The action at `index` (below `count`).
    @inline(__always)
    subscript(index: Int) -> ExchangeAction? {
        switch index {
        case 0: a0
        case 1: a1
        case 2: a2
        case 3: a3
        case 4: a4
        case 5: a5
        default: nil
        }
    }

    /// The actions as an array (tests, diagnostics).
    var all: [ExchangeAction] { Array(self) }

    /// Iterates in order.
    struct Iterator: IteratorProtocol {
        fileprivate let actions: ExchangeActions
        fileprivate var index = 0

        mutating func next() -> ExchangeAction? {
            guard index < actions.count else { return nil }
            defer { index += 1 }
            return actions[index]
        }
    }

    func makeIterator() -> Iterator { Iterator(actions: self) }
}
