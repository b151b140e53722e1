import FaultlineHTTP
private import Glibc

/// Where a session gathers the header block being received, field by field, before it becomes
/// an `HTTP2HeaderBlock`. Blocks never interleave on a connection (RFC 9113 §4.3: a HEADERS
/// frame and its CONTINUATION frames arrive back to back), so one collector serves every
/// stream, and its memory is kept from block to block: each field is a `memcpy` and a few
/// stores, where appending it to a block's arrays cost several hundred instructions. The
/// collector also keeps the block's size against `SETTINGS_MAX_HEADER_LIST_SIZE`, so a field
/// costs no lookup of its stream; memory a large block made it grow is let go when the next
/// block begins.
struct HTTP2HeaderBlockCollector: ~Copyable {
    /// Where the block being received is.
    enum Intake {
        /// Fields are kept; `size` is the RFC 9113 §6.5.2 size so far (each field's name and
        /// value plus 32 bytes).
        case collecting(size: Int)
        /// The block outgrew the limit: its fields are dropped as they arrive, and the block
        /// is refused when it ends.
        case refused
    }

    /// The most memory kept from one block to the next; a typical request needs under 1 KiB.
    static let keptLimit = 16 * 1024

    /// The regular fields, in arrival order.
    private var fields = HTTPFieldsBuilder()
    /// The request pseudo-header values back to back, but for `:path`.
    private var pseudoBytes = LineBuffer(capacity: Self.pseudoCapacity)
    /// `:path`, apart: a request head takes the block's copy of it as its target.
    private var pathBytes = LineBuffer(capacity: Self.pseudoCapacity)
    private static let pseudoCapacity = 128
    /// The storage of the blocks made last, refilled by the next ones.
    private var spares = HTTP2SpareBlockStorage()
    private var pseudo = HTTP2HeaderBlock.PseudoRanges()
    private var status: Int?
    private var hostFromAuthority = false
    /// Where the block is; a block begins collecting.
    private(set) var intake = Intake.collecting(size: 0)

    /// `:status` of the block so far (responses), which decides what kind of block it is.
    var statusSoFar: Int? { status }

    /// Bytes of memory the collector holds between blocks.
    var keptBytes: Int { fields.keptBytes + pseudoBytes.capacity + pathBytes.capacity }

    /// Bytes of memory the storage kept for later blocks holds (shared with blocks or not).
    var spareBytes: Int { spares.keptBytes }

    /// Forgets the block so far: a new one begins, or the one so far is dropped.
    mutating func begin() {
        if keptBytes > Self.keptLimit {
            // One large block must not make every connection that once sent one hold its size.
            fields = HTTPFieldsBuilder()
            pseudoBytes = LineBuffer(capacity: Self.pseudoCapacity)
            pathBytes = LineBuffer(capacity: Self.pseudoCapacity)
        }
        fields.removeAll()
        pseudoBytes.removeAll()
        pathBytes.removeAll()
        pseudo = HTTP2HeaderBlock.PseudoRanges()
        status = nil
        hostFromAuthority = false
        intake = .collecting(size: 0)
    }

    /// Records one field as nghttp2 hands it over, already checked (RFC 9113 §8.2: names are
    /// lowercase): pseudo-header fields by name, the rest in order. A field that takes the
    /// block past `sizeLimit` refuses it: what was kept is let go, and the rest is ignored.
    /// nghttp2 only announces the limit; enforcing it here bounds what one block makes us hold.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, sizeLimit: Int) {
        guard case .collecting(let size) = intake else { return }
        // Both counts are bounded by the frames nghttp2 accepted: no overflow.
        let grown = size + name.count + value.count + 32
        guard grown <= sizeLimit else {
            begin()
            intake = .refused
            return
        }
        intake = .collecting(size: grown)
        guard name.first == UInt8(ascii: ":") else {
            fields.appendField(name: name, value: value)
            return
        }
        // The length picks the candidate: one comparison instead of up to six.
        switch name.count {
        case 7 where Self.equals(name, ":method"):
            pseudo.method = appendPseudo(value)
        case 7 where Self.equals(name, ":scheme"):
            pseudo.scheme = appendPseudo(value)
        case 7 where Self.equals(name, ":status"):
            // nghttp2 checks that :status is three digits; checked again before the arithmetic.
            let digits = value.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            status = digits && value.count == 3 ? value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : nil
        case 10 where Self.equals(name, ":authority"):
            pseudo.authority = appendPseudo(value)
            // Pseudo-header fields precede the regular ones (nghttp2 refuses a block where they
            // do not), so this is the first field; a second :authority is refused the same way.
            // The Host field an HTTP/1 head needs (RFC 9113 §8.3.1) is written here, first.
            if !hostFromAuthority && fields.count == 0 {
                fields.appendField(name: HTTPHead.raw("host"), value: value)
                hostFromAuthority = true
            }
        case 5 where Self.equals(name, ":path"):
            // The last :path counts, as for the other pseudo-header fields (nghttp2 refuses a
            // block with two, RFC 9113 §8.3).
            pathBytes.removeAll()
            pathBytes.append(value)
            pseudo.path = 0..<pathBytes.count
        case 9 where Self.equals(name, ":protocol"):
            pseudo.extendedProtocol = appendPseudo(value)
        default:
            break
        }
    }

    /// The block collected so far, in storage of its own (`spares`: that of an earlier block
    /// when nothing else holds it any more).
    mutating func makeBlock(kind: HTTP2HeaderBlock.Kind, endsStream: Bool) -> HTTP2HeaderBlock {
        var storage = spares.take()
        fields.copy(into: &storage.fields)
        pseudoBytes.copy(into: &storage.pseudoBytes)
        pathBytes.copy(into: &storage.pathBytes)
        spares.keep(storage)
        return HTTP2HeaderBlock(kind: kind, fields: storage.fields, hostFromAuthority: hostFromAuthority,
                                endsStream: endsStream, status: status, pseudoBytes: storage.pseudoBytes,
                                pathBytes: storage.pathBytes, pseudo: pseudo)
    }

    /// Appends a pseudo-header value and returns where it is.
    private mutating func appendPseudo(_ value: UnsafeRawBufferPointer) -> Range<Int> {
        let start = pseudoBytes.count
        pseudoBytes.append(value)
        return start..<pseudoBytes.count
    }

    /// Whether `name` is `literal`, byte for byte (nghttp2 hands names over lowercase).
    private static func equals(_ name: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard let base = name.baseAddress, name.count == literal.utf8CodeUnitCount else { return false }
        return memcmp(base, literal.utf8Start, name.count) == 0
    }
}
