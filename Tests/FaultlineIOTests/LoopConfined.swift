/// A value that lives on one event loop and is only touched from tasks running there;
/// tests hand it between `LoopHarness.onLoop` calls.
final class LoopConfined<Value>: @unchecked Sendable {
    /// The value; read and written on the loop's thread only.
    var value: Value?
}
