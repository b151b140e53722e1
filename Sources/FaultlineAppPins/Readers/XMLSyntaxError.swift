import Foundation

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

    /// The first byte that is not UTF-8, with its line; nil when `data` is UTF-8 text.
    /// Checked before `XMLParser` sees a document: Foundation's parser traps on a name that
    /// is not UTF-8 (`<plist \u{CE}ersion=…>`), and a file is hostile input like any other.
    static func invalidUTF8(in data: Data) -> XMLSyntaxError? {
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var line = 1
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
            case .emptyInput:
                return nil
            case .error:
                return XMLSyntaxError(message: "not UTF-8 text", line: line)
            }
        }
    }
}
