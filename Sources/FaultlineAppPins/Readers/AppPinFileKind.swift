import Foundation

/// What an app pin file holds, judged from its structure over the whole file rather than
/// from a prefix: JSON, a binary property list, an XML document and its root element (found
/// past the declaration, comments, processing instructions, a DOCTYPE and whitespace, however
/// long), or anything else.
enum AppPinFileKind: Equatable {
    case json
    case binaryPlist
    /// An XML document; `root` is nil when no root element follows its prolog.
    case xml(root: String?)
    case other

    /// The kind of `data`.
    static func of(_ data: Data) -> AppPinFileKind {
        let bytes = [UInt8](data)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0  // a UTF-8 byte order mark
        if bytes[index...].starts(with: Array("bplist".utf8)) { return .binaryPlist }
        var prolog = false
        while true {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { return prolog ? .xml(root: nil) : .other }
            let rest = bytes[index...]
            if !prolog, rest.first == UInt8(ascii: "{") { return .json }
            guard rest.first == UInt8(ascii: "<") else { return prolog ? .xml(root: nil) : .other }
            let end: Int?
            if rest.starts(with: Array("<?".utf8)) {
                end = find(Array("?>".utf8), in: bytes, from: index + 2)
            } else if rest.starts(with: Array("<!--".utf8)) {
                end = find(Array("-->".utf8), in: bytes, from: index + 4)
            } else if rest.starts(with: Array("<!DOCTYPE".utf8)) {
                end = doctypeEnd(bytes, from: index + 9)
            } else {
                return rootName(bytes, from: index + 1).map { .xml(root: $0) } ?? (prolog ? .xml(root: nil) : .other)
            }
            guard let end else { return .xml(root: nil) }
            prolog = true
            index = end
        }
    }

    /// The element name after `<` at `start`, or nil when none starts there.
    private static func rootName(_ bytes: [UInt8], from start: Int) -> String? {
        var end = start
        while end < bytes.count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "/") {
            end += 1
        }
        guard end > start, let first = bytes.dropFirst(start).first,
              first >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first & 0xDF) || first == UInt8(ascii: "_") else {
            return nil
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The index after the `>` closing a DOCTYPE, stepping over its internal subset
    /// (`[…]`) and quoted identifiers; nil when it is not closed.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        var quote: UInt8?
        var subset = false
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                subset = true
            } else if byte == UInt8(ascii: "]") {
                subset = false
            } else if byte == UInt8(ascii: ">"), !subset {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// The index after the first `needle` at or after `start`, nil when there is none.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13
    }
}
