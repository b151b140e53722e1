/// Where and why an XML document stopped being well-formed.
struct XMLSyntaxError: Error, Sendable {
    /// What is wrong.
    let message: String
    /// The line of the first problem.
    let line: Int

    /// The first problem the parser reported. Foundation's parser recovers from errors and
    /// may still return success, so delegates record the first one themselves; its codes
    /// carry no usable text, hence one plain message.
    static func first(at line: Int) -> XMLSyntaxError {
        XMLSyntaxError(message: "not well-formed", line: line)
    }
}
