import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The test's own end of a socket pair, driven with plain system calls so that it is
/// independent of the code under test.
struct PeerEnd {
    let fd: Int32

    /// Sends all of `bytes` (non-blocking end: retries while the socket is full, bounded).
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        try Deadline.pollBlocking("sending \(bytes.count) bytes", timeout: .seconds(10)) { () -> Bool? in
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 { offset += count }
            return offset == bytes.count ? true : nil
        }
    }

    /// Reads until `count` bytes arrived; throws after `timeout`.
    func receive(_ count: Int, timeout: Duration = .seconds(10)) throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        return try Deadline.pollBlocking("\(count) bytes, have \(received.count)", timeout: timeout, interval: .milliseconds(1)) {
            while received.count < count {
                let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard got > 0 else { break }
                received += chunk[0..<got]
            }
            return received.count >= count ? received : nil
        }
    }

    /// Waits for end of file (the other end closed or shut its write side); bytes before it are discarded.
    func waitForEndOfFile(timeout: Duration = .seconds(10)) throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        try Deadline.pollBlocking("end of file", timeout: timeout, interval: .milliseconds(1)) { () -> Bool? in
            while true {
                let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if got == 0 { return true }
                if got < 0 { return nil }
            }
        }
    }

    /// Shuts the write side: the other end reads end of file.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}
