import Testing
import FaultlineLog

/// The pin verdict is a type; what the log says is its raw value, unchanged.
@Suite("Pin result")
struct PinResultTests {
    @Test func rawValuesAreTheLoggedWords() {
        #expect(PinResult.allCases.map(\.rawValue) == ["match", "mismatch", "report", "off", "warning"])
    }

    @Test(arguments: PinResult.allCases)
    func everyEncoderWritesTheWord(_ result: PinResult) {
        var record = LogRecord(kind: .pin)
        record.upstream = "u"
        record.pinResult = result
        let json = String(decoding: JSONLineEncoder.encode(record), as: UTF8.self)
        #expect(json.contains("\"faultline.pin.result\":\"\(result.rawValue)\""), "\(json)")
        let text = String(decoding: TextLineEncoder(colour: false).encode(record), as: UTF8.self)
        #expect(text.contains("pin=\(result.rawValue)"), "\(text)")
    }

    @Test func noResultNoKey() {
        let json = String(decoding: JSONLineEncoder.encode(LogRecord(kind: .pin)), as: UTF8.self)
        #expect(!json.contains("faultline.pin.result"))
    }
}
