private import COpenSSL

/// The BIO between a `TLSSession` and OpenSSL: reads come straight from the bytes the
/// socket just received and writes land in the session's output buffer.
///
/// Two memory BIOs did the same with two more copies and a dozen more calls per record (the
/// ciphertext was copied into the input BIO, the output BIO was asked what it held and copied
/// out through a scratch buffer, and each step allocated as the buffers grew and shrank). Like
/// HAProxy's BIO over its transport layer, this one holds no bytes of its own: OpenSSL's
/// record layer (with read-ahead) keeps what it has not decrypted yet.
enum TLSSessionBIO {
    /// The method table, made once per process; nil if OpenSSL is out of memory.
    nonisolated(unsafe) static let method: OpaquePointer? = {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "faultline session") else {
            return nil
        }
        _ = BIO_meth_set_write(method) { bio, data, length in
            TLSSessionBIO.session(of: bio)?._withUnsafeGuaranteedRef { $0.bioWrite(data, Int(length)) } ?? -1
        }
        _ = BIO_meth_set_read(method) { bio, data, length in
            guard let bio else { return -1 }
            fl_BIO_clear_retry_flags(bio)
            let count = TLSSessionBIO.session(of: bio)?._withUnsafeGuaranteedRef { $0.bioRead(data, Int(length)) } ?? 0
            if count == 0 {
                // No bytes now is "wait for more", never end of stream: the socket reports EOF.
                fl_BIO_set_retry_read(bio)
                return -1
            }
            return Int32(count)
        }
        _ = BIO_meth_set_ctrl(method) { _, command, _, _ in
            // OpenSSL flushes after each flight; the bytes are already in the output buffer.
            command == BIO_CTRL_FLUSH ? 1 : 0
        }
        _ = BIO_meth_set_create(method) { bio in
            BIO_set_init(bio, 1)
            return 1
        }
        return method
    }()

    /// A BIO for `session` (not retained: the SSL object that owns the BIO is freed in the
    /// session's deinit, before the session's memory goes).
    static func make(for session: TLSSession) -> OpaquePointer? {
        guard let method, let bio = BIO_new(method) else { return nil }
        BIO_set_data(bio, Unmanaged.passUnretained(session).toOpaque())
        return bio
    }

    private static func session(of bio: OpaquePointer?) -> Unmanaged<TLSSession>? {
        guard let bio, let data = BIO_get_data(bio) else { return nil }
        return Unmanaged<TLSSession>.fromOpaque(data)
    }
}
