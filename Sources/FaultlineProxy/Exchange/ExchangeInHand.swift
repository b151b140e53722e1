import FaultlineHTTP

/// What the adapter holds while it reports an event: body actions refer to it, so body
/// bytes are never copied into an action.
enum ExchangeInHand {
    case nothing
    case body(UnsafeRawBufferPointer)
    case head(HTTPHead)
}
