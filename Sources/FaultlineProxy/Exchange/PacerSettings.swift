/// How a pacer shapes response bytes.
struct PacerSettings: Equatable {
    var bytesPerSecond: Int
    var chunkBytes: Int
    var holdMilliseconds: Int
}
