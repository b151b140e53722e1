import FaultlineSync

/// A bounded, in-memory rolling capture of exchange records, exported on demand as a
/// HAR 1.2 document for browser dev tools, Charles or Proxyman. Records are already
/// redacted when built, so the capture holds no secret. `append` only stores the record
/// (it runs on an event loop once per exchange); all HAR encoding happens in `export`,
/// outside the lock.
public final class HARCapture: Sendable {
    private let ring: TracedMutex<HARCaptureRing>

    /// A capture keeping at most `maxEntries` records and about `maxBytes` bytes of their
    /// text (see `estimatedBytes(_:)`); a limit of 0 keeps nothing.
    public init(maxEntries: Int, maxBytes: Int) {
        ring = TracedMutex(HARCaptureRing(maxEntries: maxEntries, maxBytes: maxBytes))
    }

    /// Changes the limits (e.g. on a configuration reload), evicting the oldest records
    /// that no longer fit.
    public func setLimits(maxEntries: Int, maxBytes: Int) {
        ring.withLock { $0.setLimits(maxEntries: maxEntries, maxBytes: maxBytes) }
    }

    /// Keeps an exchange record, evicting the oldest records while over either limit.
    /// Records of any other kind are ignored; a record larger than the byte limit on its
    /// own is not kept (and counts as dropped).
    public func append(_ record: LogRecord) {
        guard record.kind == .exchange else { return }
        // Sized outside the lock: the lock then covers a few index updates only.
        let size = Self.estimatedBytes(record)
        // The record pushed out comes back and is freed here, once the lock is released.
        _ = ring.withLock { $0.append(record, bytes: size) }
    }

    /// Records held now.
    public var count: Int {
        ring.withLock { $0.count }
    }

    /// Estimated bytes held now (the sum of `estimatedBytes(_:)` of the records).
    public var byteCount: Int {
        ring.withLock { $0.bytes }
    }

    /// Records evicted or not kept since the capture started or was last cleared, so an
    /// export can say it is incomplete.
    public var droppedCount: Int {
        ring.withLock { $0.dropped }
    }

    /// Forgets every record and resets `droppedCount`, starting a fresh session; returns
    /// how many records were forgotten.
    @discardableResult
    public func clear() -> Int {
        ring.withLock { $0.removeAll() }
    }

    /// A complete HAR 1.2 document (UTF-8 JSON) of the records held, oldest first;
    /// `creatorVersion` is Faultline's version for `log.creator.version`.
    public func export(creatorVersion: String) -> [UInt8] {
        let (records, dropped) = ring.withLock { ($0.records(), $0.dropped) }
        let comment = dropped > 0 ? "\(dropped) earlier exchanges were dropped to keep the capture within its limits" : nil
        return HARDocumentEncoder.encode(records, creatorVersion: creatorVersion, comment: comment)
    }
}
