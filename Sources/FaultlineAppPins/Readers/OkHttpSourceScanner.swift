/// Finds `.add(…)` calls in Kotlin or Java source whose arguments include a `sha256/` or
/// `sha1/` string literal. Comments are skipped, string literals (with escapes) are read
/// whole, nested parentheses are balanced, so calls may span lines.
enum OkHttpSourceScanner {
    static func calls(in text: String) -> [OkHttpAddCall] {
        let chars = Array(text.unicodeScalars)
        var calls: [OkHttpAddCall] = []
        var index = 0
        var line = 1
        while index < chars.count {
            let char = chars[index]
            if char == "\n" { line += 1 }
            if let end = skipCommentOrString(chars, at: index, line: &line) {
                index = end
                continue
            }
            if isCallStart(chars, at: index), let open = openParen(chars, after: index + 3) {
                var scanLine = line
                for position in index..<open where chars[position] == "\n" { scanLine += 1 }
                if let (call, end, endLine) = arguments(chars, from: open + 1, line: scanLine, callLine: line) {
                    if isPinnerCall(call) { calls.append(call) }
                    index = end
                    line = endLine
                    continue
                }
            }
            index += 1
        }
        return calls
    }

    /// A call with a `sha256/` or `sha1/` literal, or with a host-like first literal and a
    /// later literal holding `algorithm/…` (a misspelt pin is still a pin to report).
    private static func isPinnerCall(_ call: OkHttpAddCall) -> Bool {
        let literals = call.arguments.map { argument -> String? in
            if case .literal(let text, _) = argument { return text }
            return nil
        }
        if literals.contains(where: { $0?.hasPrefix("sha256/") == true || $0?.hasPrefix("sha1/") == true }) { return true }
        guard literals.count >= 2, let first = literals[0], !first.isEmpty,
              first.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "*" }) else { return false }
        return literals.dropFirst().contains { $0?.contains("/") == true }
    }

    /// `add` as a whole identifier preceded (across whitespace) by a dot.
    private static func isCallStart(_ chars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + 3 <= chars.count, String(String.UnicodeScalarView(chars[index..<(index + 3)])) == "add" else { return false }
        if index + 3 < chars.count, isIdentifier(chars[index + 3]) { return false }
        var back = index - 1
        while back >= 0, chars[back].properties.isWhitespace { back -= 1 }
        return back >= 0 && chars[back] == "."
    }

    private static func openParen(_ chars: [Unicode.Scalar], after index: Int) -> Int? {
        var position = index
        while position < chars.count, chars[position].properties.isWhitespace { position += 1 }
        return position < chars.count && chars[position] == "(" ? position : nil
    }

    private static func isIdentifier(_ char: Unicode.Scalar) -> Bool {
        char.properties.isAlphabetic || ("0"..."9").contains(char) || char == "_"
    }

    /// The arguments up to the matching `)`: the call, the index after it, the line there.
    private static func arguments(_ chars: [Unicode.Scalar], from start: Int, line startLine: Int,
                                  callLine: Int) -> (OkHttpAddCall, Int, Int)? {
        var arguments: [OkHttpAddCall.Argument] = []
        var depth = 0
        var line = startLine
        var current = ""
        var literal: String?
        var literalLine = line
        var literalCount = 0
        var index = start
        func finish() {
            let trimmed = current.trimmingWhitespace
            if literalCount == 1, let literal, trimmed == "\u{0}" {
                arguments.append(.literal(literal, line: literalLine))
            } else if !trimmed.isEmpty {
                arguments.append(.expression(trimmed.replacingNulls(with: literal ?? ""), line: literalLine))
            }
            current = ""
            literal = nil
            literalCount = 0
            literalLine = line
        }
        while index < chars.count {
            let char = chars[index]
            if char == "\"" {
                guard let (value, end) = stringLiteral(chars, at: index) else { return nil }
                literal = value
                literalLine = line
                literalCount += 1
                current += "\u{0}"
                index = end
                continue
            }
            if char == "/", index + 1 < chars.count, chars[index + 1] == "/" || chars[index + 1] == "*" {
                guard let end = skipCommentOrString(chars, at: index, line: &line) else { return nil }
                index = end
                continue
            }
            if char == "\n" { line += 1 }
            if current.trimmingWhitespace.isEmpty && literalCount == 0 { literalLine = line }
            switch char {
            case "(": depth += 1
            case ")" where depth == 0:
                finish()
                return (OkHttpAddCall(arguments: arguments, line: callLine), index + 1, line)
            case ")": depth -= 1
            case "," where depth == 0:
                finish()
                index += 1
                continue
            default: break
            }
            current.unicodeScalars.append(char)
            index += 1
        }
        return nil
    }

    /// A `"…"` literal starting at `index`: its value and the index after the closing quote.
    private static func stringLiteral(_ chars: [Unicode.Scalar], at index: Int) -> (String, Int)? {
        var value = String.UnicodeScalarView()
        var position = index + 1
        while position < chars.count {
            let char = chars[position]
            if char == "\n" { return nil }
            if char == "\\", position + 1 < chars.count {
                value.append(chars[position + 1])
                position += 2
                continue
            }
            if char == "\"" { return (String(value), position + 1) }
            value.append(char)
            position += 1
        }
        return nil
    }

    /// When a comment or string literal starts at `index`, the index after it (lines counted).
    private static func skipCommentOrString(_ chars: [Unicode.Scalar], at index: Int, line: inout Int) -> Int? {
        let char = chars[index]
        if char == "\"" {
            return stringLiteral(chars, at: index)?.1 ?? index + 1
        }
        guard char == "/", index + 1 < chars.count else { return nil }
        if chars[index + 1] == "/" {
            var position = index
            while position < chars.count, chars[position] != "\n" { position += 1 }
            return position
        }
        if chars[index + 1] == "*" {
            var position = index + 2
            while position + 1 < chars.count, !(chars[position] == "*" && chars[position + 1] == "/") {
                if chars[position] == "\n" { line += 1 }
                position += 1
            }
            return min(position + 2, chars.count)
        }
        return nil
    }
}
