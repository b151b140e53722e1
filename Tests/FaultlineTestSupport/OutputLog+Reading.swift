import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension OutputLog {
    /// Appends everything `reader` yields, on a thread of its own, until end of file; then
    /// finishes the log and closes the reader.
    public func startReading(_ reader: FileHandle) {
        Thread { [self] in
            let fd = reader.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    append(buffer[0..<count])
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            finish()
            try? reader.close()
        }.start()
    }
}
