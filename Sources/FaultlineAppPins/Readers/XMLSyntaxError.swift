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

    /// What must be refused before `XMLParser` sees `data`, because Foundation's parser would
    /// crash on it rather than report it: bytes that are not UTF-8, and processing instructions.
    static func refusedBeforeParsing(_ data: Data) -> XMLSyntaxError? {
        invalidUTF8(in: data) ?? processingInstruction(in: data)
    }

    /// The first processing instruction (`<?target data?>`) other than the XML declaration
    /// at the very start, with its line. FoundationXML hands a processing instruction without
    /// data (`<?x?>`) to `strlen` as a null pointer and the process dies (found by the
    /// AppPinConfig fuzz target); pin files have no use for processing instructions.
    static func processingInstruction(in data: Data) -> XMLSyntaxError? {
        let bytes = [UInt8](data)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }  // a UTF-8 byte order mark
        var line = 1
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            if bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "?")
                && !(index == start && isXMLDeclaration(bytes, at: index)) {
                return XMLSyntaxError(message: "processing instructions (<?...?>) are not allowed", line: line)
            }
            index += 1
        }
        return nil
    }

    /// `<?xml` followed by whitespace: the declaration, which the parser reads itself.
    private static func isXMLDeclaration(_ bytes: [UInt8], at index: Int) -> Bool {
        let end = index + 5
        guard end < bytes.count, Array(bytes[index..<end]) == Array("<?xml".utf8) else { return false }
        return bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t")
            || bytes[end] == UInt8(ascii: "\r") || bytes[end] == UInt8(ascii: "\n")
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
