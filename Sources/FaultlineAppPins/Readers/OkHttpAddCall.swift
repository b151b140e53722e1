/// One `add(…)` call (or list line): its arguments in order and the line it starts on.
struct OkHttpAddCall: Sendable {
    /// One argument: a string literal with its line, or an expression the scan cannot read.
    enum Argument: Sendable {
        case literal(String, line: Int)
        case expression(String, line: Int)
    }

    let arguments: [Argument]
    let line: Int
}
