import Foundation

/// A deliberately strict HTTP/1.1 reader for whole byte streams (RFC 9112): what the origin
/// received on one upstream connection, or what a client received on its connection. Anything
/// a lenient peer could read two ways is an error here: obs-fold, bare CR or LF, both or
/// repeated framing headers, a Content-Length that is not plain digits, a chunk size with
/// anything but hex digits, Transfer-Encoding other than `chunked`.
enum StrictHTTPParser {
    /// The messages a stream holds, and what follows the last complete one.
    struct Result: Sendable {
        var messages: [StrictMessage]
        var tail: Tail
    }

    /// What comes after the last complete message.
    enum Tail: Sendable {
        /// Nothing: the stream ends on a message boundary.
        case none
        /// The start of a head that has not ended.
        case partialHead(offset: Int, bytes: [UInt8])
        /// A complete head whose body has not ended; the body decoded so far.
        case partialBody(StrictMessage)
        /// Bytes that are not HTTP/1.1.
        case invalid(offset: Int, reason: String)
    }

    private struct Failure: Error {
        let offset: Int
        let reason: String
    }

    private struct Incomplete: Error {}

    /// Requests, as an origin reads them.
    static func requests(_ bytes: [UInt8]) -> Result {
        messages(bytes, request: true) { reader, message, _ in
            try readBody(&reader, into: &message, request: true, bodiless: false, closed: false)
            return true
        }
    }

    /// Final responses (interim 1xx skipped), as a client reads them; `methods` are the
    /// client's request methods in order (a response to HEAD has no body), `closed` whether
    /// the stream ended (a response without length then ends with it).
    static func responses(_ bytes: [UInt8], methods: [String], closed: Bool) -> Result {
        messages(bytes, request: false) { reader, message, index in
            let status = message.status ?? 0
            if (100...199).contains(status) {
                if !message.headers.isEmpty && (message.header("content-length") != nil || message.header("transfer-encoding") != nil) {
                    throw Failure(offset: message.offset, reason: "framing header on a \(status) response")
                }
                return false
            }
            let method = index < methods.count ? methods[index] : "GET"
            let bodiless = method == "HEAD" || status == 204 || status == 304
            try readBody(&reader, into: &message, request: false, bodiless: bodiless, closed: closed)
            return true
        }
    }

    /// Reads head after head until the stream ends or breaks. `body` reads the body of each
    /// head (given how many messages were kept before it) and says whether the message is
    /// kept (an interim response is not).
    private static func messages(_ bytes: [UInt8], request: Bool,
                                 body: (inout Reader, inout StrictMessage, Int) throws -> Bool) -> Result {
        var reader = Reader(bytes: bytes)
        var messages: [StrictMessage] = []
        while reader.cursor < bytes.count {
            let start = reader.cursor
            var message: StrictMessage?
            do {
                var head = try readHead(&reader, request: request)
                head.offset = start
                message = head
                if try body(&reader, &head, messages.count) { messages.append(head) }
            } catch let failure as Failure {
                return Result(messages: messages, tail: .invalid(offset: failure.offset, reason: failure.reason))
            } catch {
                if let message { return Result(messages: messages, tail: .partialBody(reader.partial ?? message)) }
                return Result(messages: messages, tail: .partialHead(offset: start, bytes: Array(bytes[start...])))
            }
        }
        return Result(messages: messages, tail: .none)
    }

    // MARK: - heads

    private static func readHead(_ reader: inout Reader, request: Bool) throws -> StrictMessage {
        reader.partial = nil
        let lineStart = reader.cursor
        let line = try reader.line()
        var message = StrictMessage(method: nil, target: nil, status: nil, version: "", headers: [], body: [],
                                    trailers: [], framing: .none, offset: lineStart)
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: request ? 3 : 2, omittingEmptySubsequences: false)
        if request {
            guard parts.count == 3, isToken(parts[0]), !parts[1].isEmpty, parts[1].allSatisfy({ (0x21...0x7e).contains($0) }),
                  Array(parts[2]) == Array("HTTP/1.1".utf8) else {
                throw Failure(offset: lineStart, reason: "bad request line \(describe(line))")
            }
            message.method = String(decoding: parts[0], as: UTF8.self)
            message.target = String(decoding: parts[1], as: UTF8.self)
            message.version = "HTTP/1.1"
        } else {
            guard parts.count == 3, Array(parts[0]) == Array("HTTP/1.1".utf8) || Array(parts[0]) == Array("HTTP/1.0".utf8),
                  parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }),
                  let status = Int(String(decoding: parts[1], as: UTF8.self)), status >= 100,
                  parts[2].allSatisfy(isFieldValueByte) else {
                throw Failure(offset: lineStart, reason: "bad status line \(describe(line))")
            }
            message.status = status
            message.version = String(decoding: parts[0], as: UTF8.self)
        }
        message.headers = try readFields(&reader)
        return message
    }

    private static func readFields(_ reader: inout Reader) throws -> [StrictMessage.Field] {
        var fields: [StrictMessage.Field] = []
        while true {
            let lineStart = reader.cursor
            let line = try reader.line()
            if line.isEmpty { return fields }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw Failure(offset: lineStart, reason: "field line without a colon \(describe(line))")
            }
            let name = line[..<colon]
            guard isToken(name) else {
                throw Failure(offset: lineStart, reason: "bad field name (or obs-fold) \(describe(line))")
            }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            guard value.allSatisfy(isFieldValueByte) else {
                throw Failure(offset: lineStart, reason: "bad field value \(describe(line))")
            }
            fields.append(StrictMessage.Field(name: String(decoding: name, as: UTF8.self).lowercased(),
                                              value: String(decoding: value, as: UTF8.self)))
        }
    }

    // MARK: - bodies

    private static func readBody(_ reader: inout Reader, into message: inout StrictMessage, request: Bool,
                                 bodiless: Bool, closed: Bool) throws {
        let start = message.offset
        let encodings = message.values("transfer-encoding")
        let lengths = message.values("content-length")
        if !encodings.isEmpty && !lengths.isEmpty {
            throw Failure(offset: start, reason: "both Content-Length and Transfer-Encoding")
        }
        if lengths.count > 1 { throw Failure(offset: start, reason: "\(lengths.count) Content-Length fields") }
        if encodings.count > 1 || (encodings.count == 1 && encodings[0].lowercased() != "chunked") {
            throw Failure(offset: start, reason: "Transfer-Encoding \(encodings) is not exactly chunked")
        }
        var length: Int?
        if let text = lengths.first {
            guard !text.isEmpty, text.count <= 12, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text) else {
                throw Failure(offset: start, reason: "bad Content-Length \"\(text)\"")
            }
            length = value
        }
        if bodiless {
            if !encodings.isEmpty && message.status.map({ $0 == 204 || $0 == 304 }) == true {
                throw Failure(offset: start, reason: "Transfer-Encoding on a \(message.status ?? 0) response")
            }
            message.framing = .none
            return
        }
        if !encodings.isEmpty {
            message.framing = .chunked
            reader.partial = message
            try readChunks(&reader, into: &message)
        } else if let length {
            message.framing = .contentLength
            reader.partial = message
            let available = min(length, reader.bytes.count - reader.cursor)
            reader.partial?.body = Array(reader.bytes[reader.cursor..<reader.cursor + available])
            guard available == length else { throw Incomplete() }
            message.body = Array(reader.bytes[reader.cursor..<reader.cursor + length])
            reader.cursor += length
        } else if request {
            message.framing = .none
        } else {
            message.framing = .untilClose
            message.body = Array(reader.bytes[reader.cursor...])
            reader.partial = message
            reader.cursor = reader.bytes.count
            guard closed else { throw Incomplete() }
        }
        reader.partial = nil
    }

    private static func readChunks(_ reader: inout Reader, into message: inout StrictMessage) throws {
        while true {
            let lineStart = reader.cursor
            let line = try reader.line()
            let semicolon = line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex
            let digits = line[..<semicolon]
            guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy(isHexDigit),
                  let size = Int(String(decoding: digits, as: UTF8.self), radix: 16),
                  isChunkExtension(line[semicolon...]) else {
                throw Failure(offset: lineStart, reason: "bad chunk size line \(describe(line))")
            }
            if size == 0 {
                message.trailers = try readFields(&reader)
                return
            }
            let available = min(size, reader.bytes.count - reader.cursor)
            message.body += reader.bytes[reader.cursor..<reader.cursor + available]
            reader.partial?.body = message.body
            guard available == size, reader.bytes.count >= reader.cursor + size + 2 else { throw Incomplete() }
            reader.cursor += size
            guard reader.bytes[reader.cursor] == 13, reader.bytes[reader.cursor + 1] == 10 else {
                throw Failure(offset: reader.cursor, reason: "chunk data not followed by CRLF")
            }
            reader.cursor += 2
        }
    }

    // MARK: - grammar

    private static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x7e).contains(byte) || byte >= 0x80
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// `*( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )` (RFC 9112 §7.1.1).
    private static func isChunkExtension(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes[...]
        func skipSpace() { while let first = rest.first, first == 0x20 || first == 0x09 { rest = rest.dropFirst() } }
        func token() -> Bool {
            let run = rest.prefix { isToken([$0]) }
            rest = rest.dropFirst(run.count)
            return !run.isEmpty
        }
        while !rest.isEmpty {
            skipSpace()
            guard rest.first == UInt8(ascii: ";") else { return false }
            rest = rest.dropFirst()
            skipSpace()
            guard token() else { return false }
            skipSpace()
            if rest.first == UInt8(ascii: "=") {
                rest = rest.dropFirst()
                skipSpace()
                if rest.first == UInt8(ascii: "\"") {
                    rest = rest.dropFirst()
                    guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return false }
                    guard !rest[..<end].contains(UInt8(ascii: "\\")) else { return false }
                    rest = rest[(end + 1)...]
                } else if !token() {
                    return false
                }
                skipSpace()
            }
        }
        return true
    }

    private static func describe(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.prefix(80), as: UTF8.self).debugDescription
    }

    /// A cursor over the stream; `partial` is the message being read when the stream ran out.
    private struct Reader {
        let bytes: [UInt8]
        var cursor = 0
        var partial: StrictMessage?

        init(bytes: [UInt8]) { self.bytes = bytes }

        /// The next line without its CRLF; a bare CR or LF is an error.
        mutating func line() throws -> ArraySlice<UInt8> {
            guard let newline = bytes[cursor...].firstIndex(of: 10) else {
                if bytes[cursor...].contains(13) && bytes.last != 13 {
                    throw Failure(offset: cursor, reason: "bare CR")
                }
                throw Incomplete()
            }
            guard newline > cursor, bytes[newline - 1] == 13 else {
                throw Failure(offset: newline, reason: "bare LF")
            }
            let line = bytes[cursor..<(newline - 1)]
            if line.contains(13) { throw Failure(offset: cursor, reason: "bare CR") }
            cursor = newline + 1
            return line
        }
    }
}
