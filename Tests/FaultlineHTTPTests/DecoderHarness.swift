import FaultlineHTTP

/// What a decoder produced for a whole input, normalised so that different splits compare equal.
struct Transcript: Equatable {
    var heads: [String] = []
    var bodies: [[UInt8]] = []
    var trailers: [[String]] = []
    var ends = 0
    var failure: HTTP1DecodeError?
    var upgradedRest: [UInt8]?
}

/// Feeds `input` to a fresh decoder (or to `reused`) in pieces cut at `cuts`, resuming after each message.
func decode(_ input: [UInt8], kind: HTTP1Decoder.Kind, cuts: [Int] = [], limits: HTTP1DecoderLimits = HTTP1DecoderLimits(),
            headResponse: Bool = false, finish: Bool = false, reused: HTTP1Decoder? = nil) -> Transcript {
    let decoder = reused ?? HTTP1Decoder(kind: kind, limits: limits)
    if reused == nil { decoder.responseHasNoBody = headResponse }
    var transcript = Transcript()
    var pieces: [[UInt8]] = []
    var start = 0
    for cut in cuts.sorted() where cut > start && cut < input.count {
        pieces.append(Array(input[start..<cut]))
        start = cut
    }
    pieces.append(Array(input[start...]))
    var pending: [UInt8] = []
    outer: for piece in pieces {
        pending += piece
        while !pending.isEmpty {
            let status = pending.withUnsafeBytes { decoder.feed($0) }
            record(decoder, from: pending, into: &transcript)
            switch status {
            case .needMore:
                pending = []
            case .messageComplete(let consumed):
                decoder.resume()
                pending = Array(pending[consumed...])
            case .upgraded(let consumed):
                transcript.upgradedRest = Array(pending[consumed...])
                break outer
            case .failed(let error):
                transcript.failure = error
                break outer
            }
        }
    }
    if finish && transcript.failure == nil {
        let status = decoder.finish()
        record(decoder, from: [], into: &transcript)
        if case .failed(let error) = status { transcript.failure = error }
    }
    return transcript
}

private func record(_ decoder: HTTP1Decoder, from buffer: [UInt8], into transcript: inout Transcript) {
    for event in decoder.events {
        switch event {
        case .head:
            let head = decoder.head
            let start = head.method.isEmpty ? "\(head.status)" : "\(head.method) \(head.targetString)"
            let fields = head.headers.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: ";")
            transcript.heads.append("\(start) 1.\(head.versionMinor) ka=\(head.keepAlive) chunked=\(head.isChunked) cl=\(head.contentLength.map(String.init) ?? "-") up=\(head.isUpgrade) [\(fields)]")
            transcript.bodies.append([])
        case .body(let range):
            transcript.bodies[transcript.bodies.count - 1] += buffer[range]
        case .trailers:
            transcript.trailers.append(decoder.trailers.pairs.map { "\($0.name)=\($0.value)" })
        case .end:
            transcript.ends += 1
        }
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
