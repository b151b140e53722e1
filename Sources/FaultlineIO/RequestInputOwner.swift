/// What a `RequestInputLoop` asks of the server connection it reads for; all calls happen
/// on the connection's loop.
public protocol RequestInputOwner: AnyObject {
    /// Whether the next request may be decoded now (none is being answered, output is small).
    var canDecode: Bool { get }
    /// Decodes what it can of `bytes`, stopping when a request is to be answered; returns
    /// the count used (all of them after a refusal that finished the connection).
    func decode(_ bytes: UnsafeRawBufferPointer) -> Int
    /// The peer's input ended and no input is left undecoded: close, unless a request is
    /// still being answered (then close once it is).
    func inputEnded()
}
