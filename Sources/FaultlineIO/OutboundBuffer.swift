/// Bytes accepted for a socket but not yet taken by the kernel, oldest first.
struct OutboundBuffer {
    private var storage: [UInt8] = []
    private var start = 0

    var count: Int { storage.count - start }
    var isEmpty: Bool { start == storage.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        // A corked head and body arrive as two appends: one allocation for both, not two.
        if storage.capacity == 0 { storage.reserveCapacity(max(bytes.count, 4096)) }
        storage.append(contentsOf: bytes)
    }

    /// Writes as much as the socket takes through `write` (the socket's system call, kernel
    /// or in-memory); returns an error if the write failed.
    mutating func flush(_ write: (UnsafeRawBufferPointer) -> Result<Int, IOError>) -> IOError? {
        while !isEmpty {
            let result = storage.withUnsafeBytes { raw in
                write(UnsafeRawBufferPointer(rebasing: raw[start...]))
            }
            switch result {
            case .success(0):
                return nil
            case .success(let written):
                start += written
            case .failure(let error):
                return error
            }
        }
        // A drained buffer keeps a small allocation only: thousands of idle keep-alive
        // connections must not each hold on to the peak of one large transfer.
        storage.removeAll(keepingCapacity: storage.capacity <= 16 * 1024)
        start = 0
        return nil
    }

    private mutating func compactIfWorthIt() {
        if start > 0 && start >= storage.count / 2 {
            storage.removeFirst(start)
            start = 0
        }
    }
}
