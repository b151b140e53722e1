/// The pieces of Kotlin and Java source the OkHttp scan must step over whole, so that a
/// parenthesis, comma or quote inside them means nothing: comments, string literals (Kotlin
/// and Java `"""` text blocks too) and character literals. Each function looks only at the
/// piece it reads, so a scan built on them stays linear.
enum SourceLexer {
    /// A piece read from `start` to `end` (exclusive), with the newlines it spans.
    struct Piece {
        let end: Int
        let newlines: Int
    }

    /// A string literal: its value (escapes resolved to the escaped character, as a scan
    /// needs no more), or nil when it is not closed on its line.
    struct StringPiece {
        let piece: Piece
        let value: String?
    }

    /// A `//` or `/* */` comment starting at `start`, or nil. An unclosed block comment
    /// runs to the end.
    static func comment(_ chars: [Unicode.Scalar], at start: Int) -> Piece? {
        guard chars[start] == "/", start + 1 < chars.count else { return nil }
        if chars[start + 1] == "/" {
            var position = start + 2
            while position < chars.count, chars[position] != "\n" { position += 1 }
            return Piece(end: position, newlines: 0)
        }
        guard chars[start + 1] == "*" else { return nil }
        var position = start + 2
        var newlines = 0
        while position < chars.count {
            if chars[position] == "*", position + 1 < chars.count, chars[position + 1] == "/" {
                return Piece(end: position + 2, newlines: newlines)
            }
            if chars[position] == "\n" { newlines += 1 }
            position += 1
        }
        return Piece(end: chars.count, newlines: newlines)
    }

    /// The string literal whose opening quote is at `start`. A `"""` block runs to the next
    /// `"""` across lines, verbatim; an ordinary literal ends at its closing quote, and one
    /// that meets the end of its line first is unclosed (value nil) and ends there.
    static func string(_ chars: [Unicode.Scalar], at start: Int) -> StringPiece {
        if start + 2 < chars.count, chars[start + 1] == "\"", chars[start + 2] == "\"" {
            return textBlock(chars, at: start)
        }
        var value = String.UnicodeScalarView()
        var position = start + 1
        var newlines = 0
        while position < chars.count {
            let char = chars[position]
            if char == "\n" { break }
            if char == "\\", position + 1 < chars.count {
                // A backslash before a newline continues the literal on the next line (Java).
                if chars[position + 1] == "\n" { newlines += 1 }
                value.append(chars[position + 1])
                position += 2
                continue
            }
            if char == "\"" { return StringPiece(piece: Piece(end: position + 1, newlines: newlines), value: String(value)) }
            value.append(char)
            position += 1
        }
        return StringPiece(piece: Piece(end: position, newlines: newlines), value: nil)
    }

    /// A `"""…"""` block: its content verbatim; unclosed, it runs to the end (value nil).
    private static func textBlock(_ chars: [Unicode.Scalar], at start: Int) -> StringPiece {
        var value = String.UnicodeScalarView()
        var position = start + 3
        var newlines = 0
        while position < chars.count {
            if chars[position] == "\"", position + 2 < chars.count, chars[position + 1] == "\"", chars[position + 2] == "\"" {
                return StringPiece(piece: Piece(end: position + 3, newlines: newlines), value: String(value))
            }
            if chars[position] == "\n" { newlines += 1 }
            value.append(chars[position])
            position += 1
        }
        return StringPiece(piece: Piece(end: chars.count, newlines: newlines), value: nil)
    }

    /// A character literal (`'('`, `'"'`, `'\''`, `'\u0041'`) starting at `start`, or nil
    /// when the quote does not start one (nothing else in Kotlin or Java uses `'`).
    static func character(_ chars: [Unicode.Scalar], at start: Int) -> Piece? {
        guard chars[start] == "'", start + 2 < chars.count, chars[start + 1] != "\n" else { return nil }
        if chars[start + 1] != "\\" {
            return chars[start + 2] == "'" ? Piece(end: start + 3, newlines: 0) : nil
        }
        // An escape: `\n`, `\'`, `\u0041`: the closing quote within a few characters.
        var position = start + 3
        while position < min(chars.count, start + 9) {
            if chars[position] == "'" { return Piece(end: position + 1, newlines: 0) }
            if chars[position] == "\n" { return nil }
            position += 1
        }
        return nil
    }

    /// A letter, digit or `_`: part of an identifier.
    static func isIdentifier(_ char: Unicode.Scalar) -> Bool {
        char.properties.isAlphabetic || ("0"..."9").contains(char) || char == "_"
    }
}
