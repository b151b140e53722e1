/// An `add(` call being read by `OkHttpSourceScanner`: the arguments read so far and the
/// one being read. It is told only about what sits directly inside its parentheses (a
/// nested parenthesis arrives as its `(` and, later, its `)`), so each piece of source
/// reaches one builder and the scan stays linear however deeply calls nest.
struct OkHttpCallBuilder {
    /// What the argument being read holds so far (comments and whitespace aside).
    private enum Content {
        case empty
        case literal(String, line: Int)
        case expression
    }

    /// Where `add` starts (orders the calls found) and its line.
    let position: Int
    let line: Int
    private var arguments: [OkHttpAddCall.Argument] = []
    private var content = Content.empty
    /// The source range of the current argument, from its first piece to the end of its last.
    private var start = 0
    private var end = 0
    private var startLine = 0

    /// Longest expression text kept for a warning.
    static let excerptLimit = 80

    init(position: Int, line: Int) {
        self.position = position
        self.line = line
    }

    /// A string literal directly inside the parentheses: the argument if it is alone.
    mutating func literal(_ value: String, range: Range<Int>, line: Int) {
        if case .empty = content {
            begin(range, line: line)
            content = .literal(value, line: line)
        } else {
            content = .expression
        }
        end = range.upperBound
    }

    /// Any other piece of code directly inside the parentheses (an identifier, an operator,
    /// a nested `(` or `)`): the argument is an expression.
    mutating func code(_ range: Range<Int>, line: Int) {
        if case .empty = content { begin(range, line: line) }
        content = .expression
        end = range.upperBound
    }

    /// At a `,` or the closing `)`: the argument is complete. An empty one (`add()`, a
    /// trailing comma) adds nothing.
    mutating func finishArgument(_ chars: [Unicode.Scalar]) {
        switch content {
        case .empty: break
        case .literal(let value, let line): arguments.append(.literal(value, line: line))
        case .expression: arguments.append(.expression(Self.excerpt(chars[start..<end]), line: startLine))
        }
        content = .empty
    }

    /// The call, once its `)` was read and its last argument finished.
    var call: OkHttpAddCall {
        OkHttpAddCall(arguments: arguments, line: line)
    }

    /// The first piece of an argument: where its source starts.
    private mutating func begin(_ range: Range<Int>, line: Int) {
        start = range.lowerBound
        startLine = line
    }

    /// The source of an argument for a message: whitespace runs as one space, at most
    /// `excerptLimit` characters (then `…`), looking at no more than four times that much.
    static func excerpt(_ source: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        var count = 0
        var space = false
        let looked = source.prefix(excerptLimit * 4)
        for char in looked {
            if char.properties.isWhitespace {
                space = true
                continue
            }
            if count + (space ? 1 : 0) >= excerptLimit { return String(text) + "…" }
            if space, count > 0 {
                text.append(" ")
                count += 1
            }
            space = false
            text.append(char)
            count += 1
        }
        return String(text) + (looked.count < source.count ? "…" : "")
    }
}
