import FaultlineHTTP

/// A loop's request decoders of closed HTTP/1 connections, handed to the next accepted ones.
///
/// A connection per request otherwise pays for a decoder, its parser, its field section,
/// its event list and its first head's storage: eight of its fourteen allocations, and more
/// instructions than it spends parsing. A decoder is reset when it comes back, exactly as
/// between two requests of one connection (a fresh parser, no events, fields or errors), so
/// nothing of one client's bytes reaches the next; only its memory is kept, and one that
/// grew for an unusually large head is let go instead. Touched only on the loop's thread.
final class RequestDecoderPool {
    private var decoders: [HTTP1Decoder] = []

    /// At most this many decoders wait: about as many as connections close in one loop turn.
    static let capacity = 64
    /// A decoder keeping more memory than this (a large head went through it) is let go.
    static let keptBytesLimit = 4096

    /// A decoder for a new connection: a recycled one when there is one.
    func take(limits: HTTP1DecoderLimits) -> HTTP1Decoder {
        guard let decoder = decoders.popLast() else { return HTTP1Decoder(kind: .request, limits: limits) }
        // Limits change with a config reload; the rest was reset when it came back.
        if decoder.limits != limits { decoder.reset(limits: limits) }
        return decoder
    }

    /// Takes back the decoder of a connection that is gone. Only a decoder nothing else
    /// holds is kept (a holder could still feed it).
    func recycle(_ decoder: inout HTTP1Decoder) {
        guard decoders.count < Self.capacity, isKnownUniquelyReferenced(&decoder) else { return }
        decoder.reset(limits: decoder.limits)
        guard decoder.keptBytes <= Self.keptBytesLimit else { return }
        decoders.append(decoder)
    }
}
