/// An error thrown by the test support layer, with a message that says what was awaited.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
