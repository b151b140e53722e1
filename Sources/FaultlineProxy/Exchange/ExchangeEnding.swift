/// How a response that a pacer still holds ends once its bytes have left.
enum ExchangeEnding: Equatable {
    /// Normally: the next request on a kept-alive connection, or a close.
    case finish(keepAlive: Bool)
    /// Cut by a fault: the client sees a close (or a reset).
    case cut(reset: Bool)
}
