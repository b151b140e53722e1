/// A JSON number with its exact integer value when it has one; JSON has a single
/// number type, so `5000.0` counts as the integer 5000.
struct JSONNumber: Sendable, Equatable {
    /// The value as a signed integer, if integral and in range.
    let int64: Int64?
    /// The value as an unsigned integer, if integral, non-negative and in range.
    let uint64: UInt64?
    /// The number as it reads in messages.
    let text: String
}
