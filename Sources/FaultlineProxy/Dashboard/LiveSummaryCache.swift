import FaultlineSync
import Foundation

/// Exchange summaries encoded once for every live stream: ten dashboards cost one JSON
/// encoding per exchange, not ten. Keyed like the feed's ring (`seq % capacity`), so it never
/// holds more than the ring does. Used on the admin stream queue.
final class LiveSummaryCache: Sendable {
    private struct Slot {
        var seq = 0
        var json: [UInt8] = []
    }

    private let slots = TracedMutex([Slot](repeating: Slot(), count: LiveFeed.capacity))

    init() {}

    /// `record`'s summary as JSON, encoded now unless an earlier stream did.
    func json(for record: LiveRecord, encoder: JSONEncoder) -> [UInt8] {
        let index = record.seq % LiveFeed.capacity
        if let cached = slots.withLock({ $0[index].seq == record.seq ? $0[index].json : nil }) { return cached }
        let json = (try? encoder.encode(LiveExchange(record, detail: false))).map { Array($0) } ?? Array("{}".utf8)
        slots.withLock { $0[index] = Slot(seq: record.seq, json: json) }
        return json
    }
}
