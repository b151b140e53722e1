import Foundation
import Testing
import FaultlineLog

/// Integer members of a log record can hold any Int a peer managed to produce: every one is
/// written as a valid JSON number, and the process never traps on one.
@Suite("JSON integers")
struct JSONIntegerTests {
    @Test(arguments: [Int.min, Int.min + 1, -1, 0, 1, 9, 10, 65535, Int.max - 1, Int.max])
    func everyIntIsWrittenExactly(_ value: Int) throws {
        var record = LogRecord(kind: .exchange, time: LogTimestamp(seconds: 0, nanoseconds: 0), requestID: "r")
        record.serverPort = value
        record.clientPort = value
        record.statusCode = value
        let line = JSONLineEncoder.encode(record)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect((object["server.port"] as? NSNumber)?.stringValue == String(value))
        #expect(String(decoding: line, as: UTF8.self).contains("\"client.port\":\(value),"))
    }

    @Test(arguments: ["a:-9223372036854775808", "a:9223372036854775808", "a:-1", "a:65536", "a:+80", "a:99999999999999999999"])
    func hostPortsThatAreNotPortsAreNotLogged(_ host: String) {
        var record = LogRecord()
        record.setHostHeader(host)
        #expect(record.serverPort == nil)
        #expect(record.host == "a")
        _ = JSONLineEncoder.encode(record)
    }

    @Test func validHostPortIsLogged() {
        var record = LogRecord()
        record.setHostHeader("a:8080")
        #expect(record.serverPort == 8080)
        record.setHostHeader("[::1]:443")
        #expect(record.serverPort == 443)
        #expect(record.host == "[::1]")
        // An IPv6 literal's own colons are not a port.
        var literal = LogRecord()
        literal.setHostHeader("[2001:DB8::1]")
        #expect(literal.serverPort == nil)
        #expect(literal.host == "[2001:db8::1]")
        var target = LogRecord()
        target.setTarget("http://[::1]:8443/p?q=1", policy: LogPolicy())
        #expect(target.host == "[::1]")
        #expect(target.serverPort == 8443)
        #expect(target.path == "/p")
    }

    /// A Host value's userinfo (which a Host header must not carry) is dropped, not logged;
    /// the host is lowercased and at most 255 bytes of it are read.
    @Test func hostUserinfoIsDroppedAndTheHostLowercased() {
        var record = LogRecord()
        record.setHostHeader("user:SECRET-PW@Example.COM:8443")
        #expect(record.host == "example.com")
        #expect(record.serverPort == 8443)
        #expect(record.redacted == ["request.host.userinfo"])
        #expect(!String(decoding: JSONLineEncoder.encode(record), as: UTF8.self).contains("SECRET"))
        var long = LogRecord()
        long.setHostHeader(String(repeating: "h", count: 300))
        #expect(long.host?.utf8.count == 255)
    }
}
