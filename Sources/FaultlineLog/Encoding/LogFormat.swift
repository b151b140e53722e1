/// How a sink encodes records.
public enum LogFormat: Sendable, Equatable {
    /// JSON Lines.
    case json
    /// The readable one-line text form, coloured or not.
    case text(colour: Bool)

    /// `json`, `text` or `auto` resolved for a destination: auto means coloured text on a
    /// terminal and JSON otherwise; text is coloured only on a terminal.
    public static func resolve(_ name: String, isTerminal: Bool) -> LogFormat {
        switch name {
        case "json": .json
        case "text": .text(colour: isTerminal)
        default: isTerminal ? .text(colour: true) : .json
        }
    }

    /// The record's encoded line.
    public func encode(_ record: LogRecord, scope: LogLineScope = .all) -> [UInt8] {
        switch self {
        case .json: JSONLineEncoder.encode(record, scope: scope)
        case .text(let colour): TextLineEncoder(colour: colour).encode(record, scope: scope)
        }
    }
}
