import Foundation
@testable import FaultlineLog

/// The JSON writers: log records with every field fuzz-filled (strings of any bytes, any
/// integers and doubles, headers, bodies, targets, Host values) through `JSONLineEncoder`,
/// `HARDocumentEncoder` and `HARCapture`, and `JSONWriter`/`HARJSONWriter` directly.
/// Invariants: every output is strictly valid JSON (RFC 8259, well-formed UTF-8, no key
/// twice in an object); a JSON line is one line; string fields read back unchanged.
///
/// Input: field choices and values, read in order by `LogRecordBuilder`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogWriters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var records: [LogRecord] = []
    let count = 1 + input.choose(3)
    for _ in 0..<count { records.append(LogRecordBuilder.record(&input)) }
    for record in records {
        let line = JSONLineEncoder.encode(record)
        JSONOutputCheck.valid(line, "JSON line")
        FuzzCheck.require(line.last == 10 && line.dropLast().firstIndex(of: 10) == nil, "JSON line: not exactly one line: \(FuzzCheck.show(line))")
        JSONOutputCheck.readsBack(line, record)
        _ = TextLineEncoder(colour: input.flag()).encode(record)
    }
    JSONOutputCheck.valid(HARDocumentEncoder.encode(records, creatorVersion: input.string(), comment: input.flag() ? input.string() : nil), "HAR document")
    let capture = HARCapture(maxEntries: 1 + input.choose(4), maxBytes: 1 << 20)
    for record in records { capture.append(record) }
    JSONOutputCheck.valid(capture.export(creatorVersion: "fuzz"), "HAR capture export")
    JSONOutputCheck.valid(LogRecordBuilder.rawWriters(&input), "JSONWriter/HARJSONWriter")
    return 0
}

/// Fills log records from fuzz input.
enum LogRecordBuilder {
    static let attributeKeys = ["faultline.pin.observed", "faultline.pin.matched", "faultline.pin.candidate",
                                "faultline.pin.expired", "tls.protocol.version", "faultline.detail"]
    /// Built once: building the redaction rules costs more than a whole record.
    static let redactor = Redactor()
    static let contentTypes = ["application/json", "application/x-www-form-urlencoded", "text/plain; charset=utf-8",
                               "application/problem+json", "", "text/html"]

    static func optionalString(_ input: inout FuzzInput) -> String? {
        input.flag() ? input.string() : nil
    }

    static func optionalInt(_ input: inout FuzzInput) -> Int? {
        input.flag() ? Int(truncatingIfNeeded: input.int64()) : nil
    }

    static func optionalDouble(_ input: inout FuzzInput) -> Double? {
        input.flag() ? Double(bitPattern: UInt64(bitPattern: input.int64())) : nil
    }

    static func record(_ input: inout FuzzInput) -> LogRecord {
        let kinds: [LogRecordKind] = [.exchange, .pin, .fault, .tls, .error]
        // Clock time, not input: any instant between the years 1 and 9999.
        let seconds = Int64(-62_135_596_800) + Int64(truncatingIfNeeded: input.int64()).magnitudeModulo(315_537_897_600)
        var record = LogRecord(kind: input.pick(kinds), time: LogTimestamp(seconds: seconds, nanoseconds: Int32(input.byte()) * 3_900_000),
                               requestID: optionalString(&input))
        let policy = LogPolicy(redactor: redactor, options: LogOptions(headers: input.flag(), bodies: input.flag(),
                                                   headerValueMaxBytes: 1 + input.choose(200), bodyMaxBytes: 1 + input.choose(400),
                                                   maxHeaders: input.choose(8), urlMaxBytes: 1 + input.choose(300)))
        record.clientAddress = optionalString(&input)
        record.clientPort = optionalInt(&input)
        record.protocolVersion = optionalString(&input)
        record.method = optionalString(&input)
        if input.flag() { record.setTarget(bytes: input.chunk(), policy: policy) }
        if input.flag() { record.setHostHeader(input.string()) }
        record.statusCode = optionalInt(&input)
        record.requestBodySize = optionalInt(&input)
        record.responseBodySize = optionalInt(&input)
        record.connectMs = optionalDouble(&input)
        record.tlsMs = optionalDouble(&input)
        record.firstByteMs = optionalDouble(&input)
        record.totalMs = optionalDouble(&input)
        record.upstream = optionalString(&input)
        record.route = optionalString(&input)
        for _ in 0..<input.choose(3) { record.faults.append(input.string()) }
        record.pinResult = input.flag() ? PinResult.allCases[input.choose(PinResult.allCases.count)] : nil
        if input.flag() { record.setError(type: input.string(), message: input.string(), policy: policy) }
        if input.flag() { record.setMessage(input.string(), policy: policy) }
        var keys = attributeKeys
        for _ in 0..<input.choose(4) where !keys.isEmpty {
            let key = keys.remove(at: input.choose(keys.count))
            record.addAttribute(key, input.string(), policy: policy)
        }
        for _ in 0..<input.choose(6) {
            let direction: LogDirection = input.flag() ? .request : .response
            record.addHeader(name: input.string(), value: input.string(), direction: direction, policy: policy)
        }
        for direction in [LogDirection.request, .response] where input.flag() {
            let body = input.chunk()
            record.setBody(body, totalSize: input.flag() ? body.count + input.choose(100) : nil,
                           contentType: input.pick(contentTypes), direction: direction, policy: policy)
        }
        return record
    }

    /// `JSONWriter` and `HARJSONWriter` driven directly, with fuzz keys and values.
    static func rawWriters(_ input: inout FuzzInput) -> [UInt8] {
        var har = HARJSONWriter()
        har.object { root in
            var keys = Set<String>()
            for _ in 0..<input.choose(5) {
                let key = input.string()
                guard keys.insert(key).inserted else { continue }
                switch input.choose(5) {
                case 0: root.member(key, input.string())
                case 1: root.member(key, Int(truncatingIfNeeded: input.int64()))
                case 2:
                    root.key(key)
                    root.milliseconds(micros: input.flag() ? input.int64() : nil)
                case 3: root.member(key, strings: [input.string(), input.string()])
                default: root.member(key, pairs: [(input.string(), input.string())])
                }
            }
            var line = JSONWriter()
            line.begin()
            line.member("a", input.string())
            line.member("b", Int(truncatingIfNeeded: input.int64()))
            line.member("c", milliseconds: Double(bitPattern: UInt64(bitPattern: input.int64())))
            line.key("d" as StaticString, suffix: input.string())
            line.integer(0)
            line.end()
            JSONOutputCheck.valid(line.bytes, "JSONWriter line")
        }
        har.finish()
        return har.bytes
    }
}

extension Int64 {
    /// The non-negative remainder of the magnitude, for mapping any value into a range.
    fileprivate func magnitudeModulo(_ modulus: Int64) -> Int64 {
        Int64(self.magnitude % UInt64(modulus))
    }
}

/// Checks on writer output.
enum JSONOutputCheck {
    static func valid(_ bytes: [UInt8], _ what: String) {
        if let failure = StrictJSON.check(bytes) {
            let from = max(0, failure.offset - 80)
            FuzzCheck.fail("\(what): \(failure)\n  around: \(FuzzCheck.show(bytes[from..<min(bytes.count, failure.offset + 80)]))")
        }
    }

    /// String fields that are written unchanged read back unchanged through Foundation's parser.
    static func readsBack(_ line: [UInt8], _ record: LogRecord) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            FuzzCheck.fail("JSON line: Foundation cannot parse \(FuzzCheck.show(line))")
        }
        for (key, value) in [("request.id", record.requestID), ("faultline.route", record.route),
                             ("faultline.upstream", record.upstream), ("http.request.method", record.method)] {
            guard let value else { continue }
            let read = object[key] as? String
            FuzzCheck.require(read == value, "JSON line: \(key) reads back as \(read.map { FuzzCheck.show($0) } ?? "nothing"), written \(FuzzCheck.show(value))")
        }
        if let port = record.clientPort {
            FuzzCheck.require((object["client.port"] as? NSNumber)?.int64Value == Int64(port), "JSON line: client.port does not read back as \(port)")
        }
    }
}
