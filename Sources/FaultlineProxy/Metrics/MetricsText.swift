/// The Prometheus text exposition format 0.0.4, written line by line: `# HELP` and
/// `# TYPE` once per family, then its samples, label values escaped.
struct MetricsText {
    /// The media type of the answer.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A metric type of the format.
    enum Kind: String {
        case counter, gauge, histogram
    }

    /// What has been written so far.
    private(set) var text = ""

    /// Starts the family `name`.
    mutating func family(_ name: String, _ kind: Kind, _ help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// One sample without labels.
    mutating func sample(_ name: String, _ value: Int) {
        line(name, [], String(value))
    }

    /// One sample with an integer value.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Int) {
        line(name, labels, String(value))
    }

    /// One sample with a floating-point value.
    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        line(name, labels, value.isFinite ? "\(value)" : (value.isNaN ? "NaN" : (value > 0 ? "+Inf" : "-Inf")))
    }

    private mutating func line(_ name: String, _ labels: [(String, String)], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            text += labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",")
            text += "}"
        }
        text += " \(value)\n"
    }

    /// A label value as the format spells it: backslash, double quote and line feed escaped.
    static func escapeLabel(_ value: String) -> String {
        escape(value, quotes: true)
    }

    /// Help text as the format spells it: backslash and line feed escaped.
    static func escapeHelp(_ value: String) -> String {
        escape(value, quotes: false)
    }

    private static func escape(_ value: String, quotes: Bool) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
