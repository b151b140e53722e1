import FaultlineConfig

/// The parameters of a fault in the config file's format, as the value under the kind's
/// keyword (`{"status": {"code": 503}}`); a profile is its name.
enum FaultKindJSON: Encodable {
    case delay(Delay)
    case status(Status)
    case reset(Reset)
    case close(AfterBytes)
    case hang(Hang)
    case throttle(Throttle)
    case truncate(Truncate)
    case corrupt(Corrupt)
    case rewrite(Rewrite)
    case profile(String)
    case rstStream(RSTStream)
    case goAway(GoAway)

    init(_ kind: FaultKind) {
        switch kind {
        case .delay(let delay): self = .delay(Delay(delay))
        case .status(let status): self = .status(Status(status))
        case .reset(let reset): self = .reset(Reset(afterBytes: reset.afterBytes, errorCode: ErrorCode(reset.errorCode)))
        case .close(let close): self = .close(AfterBytes(afterBytes: close.afterBytes))
        case .hang(let hang): self = .hang(Hang(then: hang.then.rawValue, ms: hang.ms))
        case .throttle(let throttle):
            self = .throttle(Throttle(downBytesPerSecond: throttle.downBytesPerSecond, upBytesPerSecond: throttle.upBytesPerSecond,
                                      chunkBytes: throttle.chunkBytes))
        case .truncate(let truncate): self = .truncate(Truncate(keepBytes: truncate.keepBytes))
        case .corrupt(let corrupt): self = .corrupt(Corrupt(mode: corrupt.mode.rawValue))
        case .rewrite(let rewrite): self = .rewrite(Rewrite(rewrite))
        case .profile(let profile): self = .profile(profile.name)
        case .rstStream(let rstStream): self = .rstStream(RSTStream(errorCode: ErrorCode(rstStream.errorCode)))
        case .goAway(let goAway):
            let code = goAway == .graceful ? nil : ErrorCode(goAway.errorCode)
            self = .goAway(GoAway(mode: goAway.mode.rawValue, errorCode: code))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .delay(let value): try container.encode(value)
        case .status(let value): try container.encode(value)
        case .reset(let value): try container.encode(value)
        case .close(let value): try container.encode(value)
        case .hang(let value): try container.encode(value)
        case .throttle(let value): try container.encode(value)
        case .truncate(let value): try container.encode(value)
        case .corrupt(let value): try container.encode(value)
        case .rewrite(let value): try container.encode(value)
        case .profile(let name): try container.encode(name)
        case .rstStream(let value): try container.encode(value)
        case .goAway(let value): try container.encode(value)
        }
    }

    /// Header fields as an object; the last of repeated names wins, as in the config file.
    static func headers(_ fields: [FaultHeader]) -> [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
