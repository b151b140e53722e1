/// Where and why an XML document stopped parsing.
struct XMLSyntaxError: Error, Sendable {
    /// The parser's message.
    let message: String
    /// The line it stopped at.
    let line: Int
}
