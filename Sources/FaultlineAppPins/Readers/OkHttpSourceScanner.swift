/// Finds `.add(…)` calls in Kotlin or Java source whose arguments include a `sha256/` or
/// `sha1/` string literal, at any depth (a pinner built inside a lambda passed to some
/// other `add(` is found too). Comments, string and character literals are stepped over
/// whole, parentheses are balanced, so calls may span lines; a call never closed is not
/// read.
///
/// One pass, left to right, with a stack of open parentheses: each character is looked at
/// a bounded number of times, so the time is linear in the file's size whatever its shape
/// (an `add(` never closed, a long lambda inside one, deep nesting).
struct OkHttpSourceScanner {
    private let chars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    /// The `add(` calls open, innermost last.
    private var openCalls: [OkHttpCallBuilder] = []
    /// Other parentheses open: `groups[0]` outside every call, `groups[n]` inside `openCalls[n - 1]`
    /// (counts, so deep nesting costs no memory per level).
    private var groups = [0]
    private var found: [(position: Int, call: OkHttpAddCall)] = []
    /// Just after a `.` (whitespace and comments aside): an identifier here is a member.
    private var afterDot = false
    /// Just after `.add` (whitespace and comments aside): its position and line.
    private var pendingAdd: (position: Int, line: Int)?

    /// The pinner calls in `text`, in source order.
    static func calls(in text: String) -> [OkHttpAddCall] {
        var scanner = OkHttpSourceScanner(chars: Array(text.unicodeScalars))
        scanner.run()
        return scanner.found.sorted { $0.position < $1.position }.map(\.call)
    }

    private init(chars: [Unicode.Scalar]) {
        self.chars = chars
    }

    private mutating func run() {
        while index < chars.count {
            let char = chars[index]
            if char.properties.isWhitespace {
                if char == "\n" { line += 1 }
                index += 1
                continue
            }
            if let comment = SourceLexer.comment(chars, at: index) {
                index = comment.end
                line += comment.newlines
                continue
            }
            let start = index, startLine = line
            var add: (position: Int, line: Int)?
            var dot = false
            if char == "\"" {
                let string = SourceLexer.string(chars, at: index)
                index = string.piece.end
                line += string.piece.newlines
                if let value = string.value {
                    if let top = innermostCall { openCalls[top].literal(value, range: start..<index, line: startLine) }
                } else {
                    code(start..<index, line: startLine)
                }
            } else if let character = SourceLexer.character(chars, at: index) {
                index = character.end
                code(start..<index, line: startLine)
            } else if SourceLexer.isIdentifier(char) {
                while index < chars.count, SourceLexer.isIdentifier(chars[index]) { index += 1 }
                if afterDot, index - start == 3, chars[start] == "a", chars[start + 1] == "d", chars[start + 2] == "d" {
                    add = (start, startLine)
                }
                code(start..<index, line: startLine)
            } else {
                index += 1
                punctuation(char, at: start, pendingAdd: pendingAdd)
                dot = char == "."
            }
            afterDot = dot
            pendingAdd = add
        }
    }

    /// One character of punctuation at `position`.
    private mutating func punctuation(_ char: Unicode.Scalar, at position: Int, pendingAdd: (position: Int, line: Int)?) {
        let range = position..<(position + 1)
        let last = groups.count - 1
        switch char {
        case "(":
            code(range, line: line)
            if let pendingAdd {
                openCalls.append(OkHttpCallBuilder(position: pendingAdd.position, line: pendingAdd.line))
                groups.append(0)
            } else {
                groups[last] += 1
            }
        case ")":
            if groups[last] > 0 {
                groups[last] -= 1
            } else if var call = openCalls.popLast() {
                groups.removeLast()
                call.finishArgument(chars)
                if Self.isPinnerCall(call.call) { found.append((call.position, call.call)) }
            }
            code(range, line: line)
        case ",":
            if let top = innermostCall {
                openCalls[top].finishArgument(chars)
            }
        default:
            code(range, line: line)
        }
    }

    /// The index in `openCalls` of the call whose parentheses directly hold the scan position.
    private var innermostCall: Int? {
        groups[groups.count - 1] == 0 && !openCalls.isEmpty ? openCalls.count - 1 : nil
    }

    /// A piece of code (not a literal alone) directly inside the innermost parentheses.
    private mutating func code(_ range: Range<Int>, line: Int) {
        if let top = innermostCall { openCalls[top].code(range, line: line) }
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
}
