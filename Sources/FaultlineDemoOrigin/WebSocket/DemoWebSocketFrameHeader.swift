/// The start of one WebSocket data frame (text, binary or continuation).
struct DemoWebSocketFrameHeader: Equatable {
    /// Whether this is the last frame of its message.
    var fin: Bool
    /// 0 continuation, 1 text, 2 binary.
    var opcode: UInt8
    /// Payload length.
    var length: UInt64
}
