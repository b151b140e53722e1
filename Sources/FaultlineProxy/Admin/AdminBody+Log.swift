extension AdminBody {
    /// `GET /log`: the log sink's health and the HAR capture's fill.
    struct LogStatus: Encodable {
        let log: Sink
        let har: Capture
    }

    /// The log sink; without one only `enabled: false`.
    struct Sink: Encodable {
        var enabled: Bool
        var dropped: Int?
        var failedWrites: Int?
        var lastWriteErrno: Int?
        var destination: String?
        var path: String?

        enum CodingKeys: String, CodingKey {
            case enabled
            case dropped
            case failedWrites = "failed_writes"
            case lastWriteErrno = "last_write_errno"
            case destination
            case path
        }
    }

    /// The HAR capture ring.
    struct Capture: Encodable {
        let enabled: Bool
        let entries: Int
        let evicted: Int
    }
}
