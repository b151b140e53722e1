private import COpenSSL
import FaultlineIO

/// One TLS connection, client or server side, as a `ByteTransformer`: network bytes in,
/// plaintext out and back, through `TLSSessionBIO` and with no I/O of its own.
///
/// Not thread-safe: a session belongs to the event loop of its connection. It keeps the
/// context that made it alive. After `.failed`, flush `takeOutput` (it may hold the alert
/// that tells the peer why) and close the connection; every later call repeats the failure.
public final class TLSSession: ByteTransformer {
    enum State {
        case idle
        case handshaking
        case established
        case closed
        case failed(String)
    }

    /// Where the other end is, e.g. "127.0.0.1:8443"; used in failure messages. A client
    /// session starts with "host:port" from `makeSession`; set it once the socket connects.
    public var peerDescription: String?

    let ssl: OpaquePointer?
    let isClient: Bool
    let verifiesPeer: Bool
    let expectedHost: String?
    let cache: TLSSessionCache?
    let cacheKey: String?
    let offeredChain: [[UInt8]]
    var state: State = .idle
    /// The first bytes the peer sent, kept to tell "not TLS at all" from a TLS problem.
    var firstBytes: [UInt8] = []
    /// The first certificate problem the verify callback saw, with its depth and subject.
    var verifyFailureDetail: String?
    var cachedVerifiedChain: [[UInt8]]?
    /// Reused for every SSL_read so the data path allocates nothing per call.
    let scratch: UnsafeMutableRawBufferPointer
    /// The network bytes `receive` is working through; the BIO reads them from `inputOffset`.
    var input = UnsafeRawBufferPointer(start: nil, count: 0)
    var inputOffset = 0
    /// Ciphertext OpenSSL wrote through the BIO, waiting for `drainOutput` or `takeOutput`.
    var output: [UInt8] = []
    // Keeps the SSL_CTX and the callbacks' targets alive as long as the SSL object.
    private let owner: AnyObject

    static let scratchSize = 16 * 1024 + 512

    init(ssl: OpaquePointer?, isClient: Bool, owner: AnyObject, verifiesPeer: Bool = false,
         expectedHost: String? = nil, peerDescription: String? = nil,
         cache: TLSSessionCache? = nil, cacheKey: String? = nil, offeredChain: [[UInt8]] = []) {
        self.ssl = ssl
        self.isClient = isClient
        self.owner = owner
        self.verifiesPeer = verifiesPeer
        self.expectedHost = expectedHost
        self.peerDescription = peerDescription
        self.cache = cache
        self.cacheKey = cacheKey
        self.offeredChain = offeredChain
        self.scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.scratchSize, alignment: 16)
        guard let ssl, let bio = TLSSessionBIO.make(for: self) else {
            state = .failed("could not create a TLS session: out of memory")
            return
        }
        // One BIO both ways; the SSL object owns it from here on.
        SSL_set_bio(ssl, bio, bio)
        _ = fl_SSL_set_app_data(ssl, Unmanaged.passUnretained(self).toOpaque())
        if isClient { SSL_set_connect_state(ssl) } else { SSL_set_accept_state(ssl) }
    }

    deinit {
        if let ssl {
            _ = fl_SSL_set_app_data(ssl, nil)
            SSL_free(ssl)  // also frees the BIO
        }
        scratch.deallocate()
    }

    /// Whether the handshake has completed (and the channel has not failed since).
    public var isHandshakeComplete: Bool {
        switch state {
        case .established, .closed: return true
        default: return false
        }
    }

    /// Why the session failed, or nil while it is healthy or closed cleanly.
    public var failureReason: String? {
        if case .failed(let reason) = state { return reason }
        return nil
    }

    /// The session behind an SSL object, for OpenSSL callbacks.
    static func from(_ ssl: OpaquePointer?) -> TLSSession? {
        guard let ssl, let pointer = fl_SSL_get_app_data(ssl) else { return nil }
        return Unmanaged<TLSSession>.fromOpaque(pointer).takeUnretainedValue()
    }
}
