import FaultlineHTTP

/// The HTTP/2 header block of a response Faultline writes itself (`OwnResponse`): pure, so
/// the encoding is unit-tested without a session. The body goes as DATA on the stream.
enum OwnResponseHTTP2 {
    /// `:status` (not three digits for `garbage`), the type, the length, then the fields with
    /// their names lowercased (RFC 9113 §8.2.1).
    static func fields(of response: OwnResponse) -> HTTPHeaders {
        var fields = HTTPHeaders()
        fields.add(name: ":status", value: response.ending == .garbage ? "x0x" : String(response.status))
        if let contentType = response.contentType { fields.add(name: "content-type", value: contentType) }
        if response.declaresLength { fields.add(name: "content-length", value: String(response.body.count)) }
        for field in response.fields { fields.add(name: field.name.lowercased(), value: field.value) }
        return fields
    }

    /// The DATA a complete response carries: nil for none (END_STREAM on the HEADERS).
    static func body(of response: OwnResponse) -> [UInt8]? {
        response.ending == .complete && response.sendsBody && !response.body.isEmpty ? response.body : nil
    }
}
