import Synchronization

/// The token issuer behind `POST /token`: every call is one refresh, numbered from 1 per origin,
/// so a test can tell how many refreshes a client made from the token it holds.
final class DemoOriginTokens: Sendable {
    private let issued = Atomic<Int>(0)

    /// The next token, `t-<n>` for the n-th refresh.
    func next() -> String {
        let number = issued.add(1, ordering: .relaxed).newValue
        return "t-\(number)"
    }
}
