extension HTTPHead {
    /// The transfer codings of this message other than the `chunked` the proxy removes and
    /// re-applies, joined with ", " (empty when there are none). A body sent with
    /// `Transfer-Encoding: gzip, chunked` is still gzip-coded after de-chunking: the head the
    /// proxy writes must say `gzip, chunked`, not just `chunked`. When chunked is not the final
    /// coding (a response read until close), every coding stays, chunked included.
    public var transferCodingsBeforeChunked: [UInt8] {
        var codings: [[UInt8]] = []
        for index in 0..<headers.count {
            headers.withField(index) { name, value in
                guard ASCII.equalsIgnoringCase(name, "transfer-encoding") else { return }
                ASCII.forEachListElement(value) { codings.append(Array($0)) }
            }
        }
        if isChunked, let last = codings.last, last.withUnsafeBytes({ ASCII.equalsIgnoringCase($0, "chunked") }) {
            codings.removeLast()
        }
        var out: [UInt8] = []
        for coding in codings {
            if !out.isEmpty { out.append(contentsOf: ", ".utf8) }
            out.append(contentsOf: coding)
        }
        return out
    }
}
