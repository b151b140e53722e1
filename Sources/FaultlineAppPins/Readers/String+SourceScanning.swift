/// Text helpers for the source scanner.
extension String {
    /// Without leading and trailing Unicode whitespace.
    var trimmingWhitespace: String {
        let head = unicodeScalars.drop { $0.properties.isWhitespace }
        let tail = head.reversed().drop { $0.properties.isWhitespace }
        return String(String.UnicodeScalarView(tail.reversed()))
    }

    /// With each NUL (a placeholder for a string literal) replaced by `text` in quotes.
    func replacingNulls(with text: String) -> String {
        unicodeScalars.map { $0 == "\u{0}" ? "\"\(text)\"" : String($0) }.joined()
    }
}
