import Foundation

/// Approximate lines for JSON key paths: JSON decoders keep no positions, so each key of
/// the path is searched as `"key"` after the previous one; indices keep the position of
/// their array's key. Good enough to point at the right entry.
struct JSONLineFinder {
    private let text: [UInt8]

    /// Wraps the document's bytes.
    init(_ data: Data) {
        text = Array(data)
    }

    /// The line of the last key of `path`, nil when a key is not found.
    func line(of path: KeyPath) -> Int? {
        var position = 0
        for component in path.plain.components {
            guard case .key(let key) = component else { continue }
            guard let found = find(Array("\"\(key)\"".utf8), from: position) else { return nil }
            position = found
        }
        return text[..<position].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, text.count >= needle.count, start <= text.count - needle.count else { return nil }
        for index in start...(text.count - needle.count) where text[index] == needle[0] {
            if Array(text[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}
