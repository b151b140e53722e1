import FaultlineHTTP

/// A message's headers as a record keeps them when the redactor logs every one of them as it
/// is: one array of entries (the name's position in `Redactor.commonHeaderSpellings`, a
/// four-byte little-endian value length, the value), made into `LogField`s only when something
/// reads them. The HAR capture keeps every exchange's headers while few are ever read, and two
/// Strings and an array slot per header cost about 600 instructions each on every exchange;
/// this costs one copy per message. A reader gets exactly the fields `LogRecord.addHeader`
/// would have stored, so nothing is kept here that the log could not show.
@usableFromInline struct LogHeaderLines: Sendable {
    /// The entries, back to back.
    private var bytes: [UInt8]
    /// How many headers `bytes` holds.
    @usableFromInline private(set) var count: Int
    /// The UTF-8 length of the names and values together, for size estimates.
    @usableFromInline private(set) var textBytes: Int

    /// No headers.
    @usableFromInline init() {
        bytes = []
        count = 0
        textBytes = 0
    }

    /// The fields of `headers` when every one is logged as it is: a name with a verbatim
    /// spelling in `policy`'s redactor, an ASCII value of at most the policy's value cap (the
    /// length the field's String would have). Nil otherwise: the caller then adds them one by
    /// one. The policy is passed whole: a copy of its `Redactor` retains every rule set.
    init?(verbatim headers: HTTPHeaders, policy: LogPolicy) {
        let valueMaxBytes = min(policy.options.headerValueMaxBytes, Int(UInt32.max))
        // Values are disjoint parts of the head's bytes, so those bytes and five per field
        // bound the entries: one pass checks each field and writes it, and a field that is
        // not logged as it is drops the lot.
        guard headers.count <= (Int.max - headers.bytes.count) / 5 else { return nil }
        let room = headers.bytes.count + 5 * headers.count
        var text = 0
        let made = withUnsafeTemporaryAllocation(byteCount: max(1, room), alignment: 1) { room -> [UInt8]? in
            guard let base = room.baseAddress else { return nil }
            let end = base + room.count
            var cursor = base
            var verbatim = true
            headers.forEachField { _, name, value in
                guard value.count <= valueMaxBytes, value.count <= end - cursor - 5, ASCII.isASCII(value),
                      let position = policy.redactor.verbatimSpellingPosition(headerName: name), position < 256 else {
                    verbatim = false
                    return false
                }
                cursor.storeBytes(of: UInt8(truncatingIfNeeded: position), as: UInt8.self)
                cursor.storeBytes(of: UInt32(truncatingIfNeeded: value.count).littleEndian, toByteOffset: 1, as: UInt32.self)
                cursor += 5
                if let source = value.baseAddress, !value.isEmpty {
                    cursor.copyMemory(from: source, byteCount: value.count)
                    cursor += value.count
                }
                text += name.count + value.count
                return true
            }
            guard verbatim, cursor > base else { return nil }
            return Array(UnsafeRawBufferPointer(start: base, count: cursor - base))
        }
        guard let made, !made.isEmpty else { return nil }
        bytes = made
        count = headers.count
        textBytes = text
    }

    /// Whether no header is held.
    @usableFromInline var isEmpty: Bool { count == 0 }

    /// These headers as fields, or `held` when there are none (a direction holds one form
    /// or the other).
    @usableFromInline func fields(else held: [LogField]) -> [LogField] {
        isEmpty ? held : fields()
    }

    /// Makes these headers the fields of `fields` (which are empty while lines are held) and
    /// holds none: before anything changes a direction's headers.
    @usableFromInline mutating func move(into fields: inout [LogField]) {
        guard !isEmpty else { return }
        fields = self.fields()
        self = LogHeaderLines()
    }

    /// The headers as fields, in order: what `LogRecord.addHeader` would have stored.
    @usableFromInline func fields() -> [LogField] {
        var fields: [LogField] = []
        fields.reserveCapacity(count)
        let spellings = Redactor.commonHeaderSpellings
        bytes.withUnsafeBytes { raw in
            var at = 0
            while at + 5 <= raw.count {
                let position = Int(raw[at])
                var length = 0
                for shift in 0..<4 { length |= Int(raw[at + 1 + shift]) << (8 * shift) }
                at += 5
                guard position < spellings.count, length <= raw.count - at else { return }
                let value = String(decoding: UnsafeRawBufferPointer(rebasing: raw[at..<(at + length)]), as: UTF8.self)
                at += length
                fields.append(LogField(name: spellings[position], value: value))
            }
        }
        return fields
    }
}
