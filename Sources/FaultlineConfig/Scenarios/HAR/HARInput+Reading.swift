import Foundation

extension HARInput {
    /// The largest HAR file read (64 MiB): a browser's export of a long session stays well
    /// below; the whole file is held and decoded in memory.
    public static let maxFileBytes = 64 * 1024 * 1024
    /// The most entries read.
    public static let maxEntries = 100_000
    /// The deepest nesting accepted anywhere in the document (HAR itself needs 6).
    public static let maxDepth = 64

    /// Decodes `bytes`; refuses a document over `maxFileBytes`, nested deeper than
    /// `maxDepth`, with more than `maxEntries` entries, or whose members have the wrong types,
    /// naming the member.
    public static func read(_ bytes: [UInt8]) throws(HARReadError) -> HARInput {
        guard bytes.count <= maxFileBytes else {
            throw HARReadError(path: "", message: "the file has \(bytes.count) bytes; the most read is \(maxFileBytes) (64 MiB)")
        }
        // Checked before decoding so a hostile file never reaches the parser's recursion.
        if let depthError = nestingError(bytes) { throw depthError }
        let input: HARInput
        do {
            input = try JSONDecoder().decode(HARInput.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw HARReadError(path: "", message: "not a HAR document: \(error)")
        }
        guard input.log.entries.count <= maxEntries else {
            throw HARReadError(path: "log.entries", message: "\(input.log.entries.count) entries; the most read is \(maxEntries)")
        }
        return input
    }

    /// Brackets nested deeper than `maxDepth` (outside strings).
    private static func nestingError(_ bytes: [UInt8]) -> HARReadError? {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { return HARReadError(path: "", message: "nested deeper than \(maxDepth) levels") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    private static func describe(_ error: DecodingError) -> HARReadError {
        switch error {
        case .typeMismatch(let type, let context):
            return HARReadError(path: path(context.codingPath), message: "expected \(typeName(type))")
        case .valueNotFound(let type, let context):
            return HARReadError(path: path(context.codingPath), message: "expected \(typeName(type)), got null")
        case .keyNotFound(let key, let context):
            return HARReadError(path: path(context.codingPath + [key]), message: "missing")
        case .dataCorrupted(let context):
            let path = path(context.codingPath)
            return HARReadError(path: path, message: path.isEmpty ? "not JSON" : "invalid value")
        @unknown default:
            return HARReadError(path: "", message: "not a HAR document")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Double.self { return "a number" }
        if type is any Collection.Type { return "an array" }
        return "an object"
    }

    /// `log.entries[3].response.status`.
    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}
