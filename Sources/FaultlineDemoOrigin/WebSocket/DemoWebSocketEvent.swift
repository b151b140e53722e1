/// What the frame decoder found.
enum DemoWebSocketEvent: Equatable {
    /// A data frame begins; its payload follows in `.payload` events totalling `length`.
    case frame(DemoWebSocketFrameHeader)
    /// Unmasked payload bytes of the current data frame.
    case payload([UInt8])
    /// A whole control frame (close 8, ping 9, pong 10), unmasked.
    case control(opcode: UInt8, payload: [UInt8])
    /// The peer broke the protocol; answer a close frame with `closeCode` and stop reading.
    case failure(closeCode: UInt16, reason: String)
}
