/// The first bytes of a body kept for its log record, up to a cap; the rest is only counted.
struct BodyCapture {
    let contentType: String?
    let limit: Int
    var bytes: [UInt8] = []
    var total = 0

    init(contentType: String?, limit: Int) {
        self.contentType = contentType
        self.limit = limit
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        total += chunk.count
        let room = limit - bytes.count
        if room > 0 { bytes.append(contentsOf: chunk.prefix(room)) }
    }

    mutating func append(_ chunk: [UInt8]) {
        chunk.withUnsafeBytes { append($0) }
    }
}
