/// The error an exchange's log record carries, with its message.
struct ExchangeFailure: Equatable {
    /// The record's `error.type`.
    var error: ExchangeError
    /// The record's error message.
    var message: String
}
