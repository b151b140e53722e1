extension HTTPHead {
    /// Whether an Upgrade field offers `h2c` (cleartext HTTP/2, RFC 7540 §3.2).
    public var offersH2CUpgrade: Bool {
        var offers = false
        headers.forEachField { _, name, value in
            offers = ASCII.equalsIgnoringCase(name, "upgrade") && ASCII.listContains(value, token: "h2c")
            return !offers
        }
        return offers
    }

    /// Removes an h2c upgrade offer, as nginx does: the `h2c` token of Upgrade (the field
    /// goes when nothing else is offered), every HTTP2-Settings field, and the Connection
    /// tokens that named them. A proxy that speaks HTTP/1.1 upstream cannot honour the offer,
    /// and forwarding it lets the origin switch a pooled connection to HTTP/2 (h2c smuggling).
    /// `isUpgrade` then says whether another protocol is still offered.
    public mutating func stripH2CUpgradeOffer() {
        guard offersH2CUpgrade else { return }
        var kept = HTTPHeaders()
        var otherUpgrade = false
        for index in 0..<headers.count {
            headers.withField(index) { name, value in
                if ASCII.equalsIgnoringCase(name, "upgrade") {
                    let others = Self.listWithout(value) { ASCII.equalsIgnoringCase($0, "h2c") }
                    if !others.isEmpty {
                        otherUpgrade = true
                        kept.add(name: name, value: others)
                    }
                } else if !ASCII.equalsIgnoringCase(name, "http2-settings") {
                    kept.add(name: name, value: value)
                }
            }
        }
        var result = HTTPHeaders()
        var connectionUpgrade = false
        for index in 0..<kept.count {
            kept.withField(index) { name, value in
                guard ASCII.equalsIgnoringCase(name, "connection") else {
                    result.add(name: name, value: value)
                    return
                }
                let tokens = Self.listWithout(value) { token in
                    ASCII.equalsIgnoringCase(token, "http2-settings") || (!otherUpgrade && ASCII.equalsIgnoringCase(token, "upgrade"))
                }
                tokens.withUnsafeBytes { if ASCII.listContains($0, token: "upgrade") { connectionUpgrade = true } }
                if !tokens.isEmpty { result.add(name: name, value: tokens) }
            }
        }
        headers = result
        isUpgrade = isUpgrade && otherUpgrade && connectionUpgrade
    }

    /// The elements of a comma-separated list that `drop` does not match, joined with ", ".
    private static func listWithout(_ value: UnsafeRawBufferPointer, drop: (UnsafeRawBufferPointer) -> Bool) -> [UInt8] {
        var out: [UInt8] = []
        ASCII.forEachListElement(value) { element in
            guard !drop(element) else { return }
            if !out.isEmpty { out.append(contentsOf: ", ".utf8) }
            out.append(contentsOf: element)
        }
        return out
    }
}
