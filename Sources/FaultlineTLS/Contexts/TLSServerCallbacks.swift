private import COpenSSL

/// What the server's OpenSSL callbacks consult: the ALPN preference list and the SNI table.
/// Immutable after init and read from any loop, hence `@unchecked Sendable`.
final class TLSServerCallbacks: @unchecked Sendable {
    /// ALPN names in preference order, wire format, at a stable address for OpenSSL.
    let alpnWire: UnsafeMutableBufferPointer<UInt8>
    let serverNames: TLSServerNameTable

    init(alpnWire wire: [UInt8], serverNames: TLSServerNameTable) {
        alpnWire = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(wire.count, 1))
        _ = alpnWire.initialize(from: wire)
        self.alpnCount = wire.count
        self.serverNames = serverNames
    }

    let alpnCount: Int

    deinit {
        alpnWire.deallocate()
    }

    /// Installs ALPN selection (and, on the default context, SNI) pointing at `self`.
    func install(on ctx: OpaquePointer, sni: Bool) {
        let arg = Unmanaged.passUnretained(self).toOpaque()
        if alpnCount > 0 {
            SSL_CTX_set_alpn_select_cb(ctx, { _, out, outLength, clientList, clientLength, arg in
                guard let arg, let out, let outLength, let clientList else { return SSL_TLSEXT_ERR_NOACK }
                let callbacks = Unmanaged<TLSServerCallbacks>.fromOpaque(arg).takeUnretainedValue()
                let client = UnsafeBufferPointer(start: clientList, count: Int(clientLength))
                guard let range = callbacks.selectALPN(offered: client) else { return SSL_TLSEXT_ERR_NOACK }
                out.pointee = UnsafePointer(callbacks.alpnWire.baseAddress.map { $0 + range.lowerBound })
                outLength.pointee = UInt8(range.count)
                return SSL_TLSEXT_ERR_OK
            }, arg)
        }
        if sni {
            _ = fl_SSL_CTX_set_tlsext_servername_callback(ctx, { ssl, _, arg in
                guard let ssl, let arg, let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else {
                    return SSL_TLSEXT_ERR_OK
                }
                let callbacks = Unmanaged<TLSServerCallbacks>.fromOpaque(arg).takeUnretainedValue()
                if let ctx = callbacks.serverNames.context(for: String(cString: name)) {
                    _ = SSL_set_SSL_CTX(ssl, ctx)
                }
                // Unknown names get the default certificate rather than an alert.
                return SSL_TLSEXT_ERR_OK
            }, arg)
        }
    }

    /// The server's first preference the client also offered, as a range in `alpnWire`.
    func selectALPN(offered client: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var serverIndex = 0
        while serverIndex < alpnCount {
            let length = Int(alpnWire[serverIndex])
            let server = (serverIndex + 1)..<(serverIndex + 1 + length)
            var clientIndex = 0
            while clientIndex < client.count {
                let clientLength = Int(client[clientIndex])
                let start = clientIndex + 1
                if clientLength == length, start + length <= client.count,
                   zip(server, start..<(start + length)).allSatisfy({ alpnWire[$0] == client[$1] }) {
                    return server
                }
                clientIndex = start + clientLength
            }
            serverIndex += 1 + length
        }
        return nil
    }
}
