import FaultlineHTTP
import FaultlineIO

/// Response bytes through a pacer (first-byte delays, throttling) when a fault asks for one.
extension DownstreamConnection {
    /// Response bytes go through the exchange's pacer when one shapes them.
    func emitToClient(_ bytes: [UInt8], exchange: Exchange) {
        if let pacer = exchange.pacer {
            bytes.withUnsafeBytes { pacer.emit($0) }
        } else {
            socket.write(bytes)
        }
    }

    /// A pacer hands its bytes to the client socket.
    var pacedSink: PacedSink { socket }
}
