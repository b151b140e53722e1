/// Where in a file a problem is: a line, or the reason no line can be given.
public enum AppPinLocation: Sendable, Hashable {
    /// A 1-based line.
    case line(Int)
    /// The file is a binary property list, which has no lines.
    case binaryPlist
    /// No line is known.
    case unknown

    /// A line when one is known.
    public init(_ line: Int?) {
        self = line.map { .line($0) } ?? .unknown
    }

    /// ` (line 14)`, ` (binary plist, no line)` or nothing.
    var suffix: String {
        switch self {
        case .line(let line): " (line \(line))"
        case .binaryPlist: " (binary plist, no line)"
        case .unknown: ""
        }
    }
}
