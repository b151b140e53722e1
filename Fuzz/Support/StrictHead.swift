/// A strict RFC 9112 head parser, independent of llhttp, for checking what Faultline writes:
/// CRLF line ends only, token method and field names, no whitespace or control bytes in the
/// target, field values of visible bytes, spaces and tabs only, no obs-fold, no empty name.
struct StrictHead {
    /// How the head says its body is delimited.
    enum Framing: Equatable, CustomStringConvertible {
        /// Neither Content-Length nor Transfer-Encoding.
        case none
        /// One valid Content-Length.
        case contentLength(UInt64)
        /// Transfer-Encoding ending in chunked, no Content-Length.
        case chunked

        var description: String {
            switch self {
            case .none: "none"
            case .contentLength(let length): "content-length \(length)"
            case .chunked: "chunked"
            }
        }
    }

    /// One field line: name and value as sent (value without surrounding whitespace).
    struct Field: Equatable {
        let name: [UInt8]
        let value: [UInt8]

        /// The name in lowercase.
        var lowercaseName: String { String(decoding: name.map(lower), as: UTF8.self) }
    }

    /// Request method (requests).
    var method: [UInt8] = []
    /// Request target (requests).
    var target: [UInt8] = []
    /// Status code (responses).
    var status = 0
    /// Reason phrase (responses).
    var reason: [UInt8] = []
    /// `HTTP/1.1` → (1, 1).
    var version = (major: 0, minor: 0)
    /// Field lines in order.
    var fields: [Field] = []
    /// Bytes of the head, through the empty line.
    var length = 0

    /// Parses the head at the start of `bytes`; the error says which rule was broken.
    static func parse(_ bytes: [UInt8], request: Bool) -> Result<StrictHead, StrictHeadError> {
        var head = StrictHead()
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while true {
            guard let lf = bytes[index...].firstIndex(of: 10) else { return .failure("head does not end") }
            guard lf > start, bytes[lf - 1] == 13 else { return .failure("line \(lines.count) does not end in CRLF") }
            let line = bytes[start..<(lf - 1)]
            if line.contains(13) { return .failure("bare CR in line \(lines.count)") }
            index = lf + 1
            start = index
            if line.isEmpty { break }
            lines.append(line)
        }
        head.length = index
        guard let first = lines.first else { return .failure("no start line") }
        let startLine = request ? head.parseRequestLine(first) : head.parseStatusLine(first)
        if let problem = startLine { return .failure(problem) }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .failure("field line without ':'") }
            let name = line[..<colon]
            if name.isEmpty { return .failure("empty field name") }
            if !name.allSatisfy(isTokenByte) { return .failure("field name \(FuzzCheck.show(name)) is not a token") }
            var value = line[(colon + 1)...]
            while let byte = value.first, byte == 32 || byte == 9 { value = value.dropFirst() }
            while let byte = value.last, byte == 32 || byte == 9 { value = value.dropLast() }
            if let bad = value.first(where: { !($0 == 9 || $0 == 32 || ($0 >= 0x21 && $0 != 0x7F)) }) {
                return .failure("byte \(bad) in the value of \(FuzzCheck.show(name))")
            }
            head.fields.append(Field(name: Array(name), value: Array(value)))
        }
        return .success(head)
    }

    private mutating func parseRequestLine(_ line: ArraySlice<UInt8>) -> StrictHeadError? {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return "request line has \(parts.count) parts" }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { return "method is not a token" }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "target \(FuzzCheck.show(parts[1])) has bytes outside VCHAR"
        }
        method = Array(parts[0])
        target = Array(parts[1])
        return parseVersion(parts[2])
    }

    private mutating func parseStatusLine(_ line: ArraySlice<UInt8>) -> StrictHeadError? {
        let parts = line.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return "status line has \(parts.count) parts" }
        if let problem = parseVersion(parts[0]) { return problem }
        guard parts[1].count == 3, parts[1].allSatisfy(isDigit) else { return "status is not three digits" }
        status = parts[1].reduce(0) { $0 * 10 + Int($1 - 48) }
        guard parts[2].allSatisfy({ $0 == 9 || $0 == 32 || ($0 >= 0x21 && $0 != 0x7F) }) else {
            return "reason phrase has control bytes"
        }
        reason = Array(parts[2])
        return nil
    }

    private mutating func parseVersion(_ text: ArraySlice<UInt8>) -> StrictHeadError? {
        let bytes = Array(text)
        guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8), isDigit(bytes[5]), bytes[6] == UInt8(ascii: "."),
              isDigit(bytes[7]) else { return "version \(FuzzCheck.show(text)) is not HTTP/D.D" }
        version = (Int(bytes[5] - 48), Int(bytes[7] - 48))
        return nil
    }

    /// The values of every field called `name` (lowercase), in order.
    func values(_ name: String) -> [[UInt8]] {
        fields.filter { $0.lowercaseName == name }.map(\.value)
    }

    /// The body framing the head declares, or why it is ambiguous (RFC 9112 §6.3).
    func framing() -> Result<Framing, StrictHeadError> {
        let lengths = values("content-length")
        let codings = values("transfer-encoding")
        if !codings.isEmpty {
            if !lengths.isEmpty { return .failure("both Transfer-Encoding and Content-Length") }
            let list = codings.flatMap { $0.split(separator: UInt8(ascii: ",")) }
                .map { String(decoding: $0.filter { $0 != 32 && $0 != 9 }.map(lower), as: UTF8.self) }
            guard list.last == "chunked", list.filter({ $0 == "chunked" }).count == 1 else {
                return .failure("Transfer-Encoding \(list) does not end in one chunked")
            }
            return .success(.chunked)
        }
        guard let first = lengths.first else { return .success(.none) }
        guard lengths.count == 1 else { return .failure("\(lengths.count) Content-Length fields") }
        // 1*DIGIT (RFC 9110 §8.6); leading zeros are allowed, the value must fit 64 bits.
        let significant = first.drop { $0 == UInt8(ascii: "0") }
        guard !first.isEmpty, first.allSatisfy(isDigit), significant.count <= 20,
              let length = significant.isEmpty ? 0 : UInt64(String(decoding: significant, as: UTF8.self)) else {
            return .failure("Content-Length \(FuzzCheck.show(first)) is not a decimal")
        }
        return .success(.contentLength(length))
    }

    /// Whether `value` is a valid Host field value: uri-host [":" port] (RFC 9110 §7.2,
    /// RFC 3986 §3.2.2): a reg-name of unreserved, sub-delims and %XX, or an IP literal.
    static func isValidHost(_ value: [UInt8]) -> Bool {
        var host = value[...]
        if let colon = host.lastIndex(of: UInt8(ascii: ":")), !host[colon...].contains(UInt8(ascii: "]")) {
            guard host[(colon + 1)...].allSatisfy(isDigit) else { return false }
            host = host[..<colon]
        }
        if host.first == UInt8(ascii: "[") {
            guard host.last == UInt8(ascii: "]"), host.count > 2 else { return false }
            return host.dropFirst().dropLast().allSatisfy { isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
        }
        var index = host.startIndex
        while index < host.endIndex {
            let byte = host[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < host.endIndex, isHexDigit(host[index + 1]), isHexDigit(host[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isUnreserved(byte) || "!$&'()*+,;=".utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }
}

/// Why a head is not strictly valid.
struct StrictHeadError: Error, ExpressibleByStringLiteral, ExpressibleByStringInterpolation, CustomStringConvertible {
    let description: String

    init(stringLiteral value: String) {
        description = value
    }

    init(stringInterpolation: DefaultStringInterpolation) {
        description = String(stringInterpolation: stringInterpolation)
    }
}

/// RFC 9110 §5.6.2 tchar.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
}

func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }
}

func lower(_ byte: UInt8) -> UInt8 {
    byte >= 65 && byte <= 90 ? byte | 0x20 : byte
}
