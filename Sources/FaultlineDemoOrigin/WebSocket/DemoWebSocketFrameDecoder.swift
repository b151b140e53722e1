/// Decodes client-to-server WebSocket frames (RFC 6455 section 5); does no I/O.
///
/// Data payloads are passed on as they arrive rather than collected, so an echo of a frame
/// of any size holds at most one read's worth of it. Control frames (at most 125 bytes) are
/// collected whole. Any split of the input gives the same events, up to how payload pieces
/// are cut.
struct DemoWebSocketFrameDecoder {
    private enum State {
        case header
        case payload(remaining: UInt64)
        case control(opcode: UInt8, remaining: Int)
        case failed
    }

    private var state = State.header
    private var header: [UInt8] = []
    private var mask: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    private var maskOffset = 0
    private var control: [UInt8] = []
    private var inFragmentedMessage = false

    /// Decodes `bytes`, all of which are consumed.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [DemoWebSocketEvent] {
        var events: [DemoWebSocketEvent] = []
        var offset = 0
        while offset < bytes.count {
            switch state {
            case .failed:
                return events
            case .header:
                header.append(bytes[offset])
                offset += 1
                if let event = headerByteAdded() { events.append(event) }
            case .payload(let remaining):
                let count = Int(min(remaining, UInt64(bytes.count - offset)))
                events.append(.payload(unmask(bytes, from: offset, count: count)))
                offset += count
                state = remaining == UInt64(count) ? .header : .payload(remaining: remaining - UInt64(count))
            case .control(let opcode, let remaining):
                let count = min(remaining, bytes.count - offset)
                control += unmask(bytes, from: offset, count: count)
                offset += count
                if remaining == count {
                    events.append(finishControl(opcode))
                } else {
                    state = .control(opcode: opcode, remaining: remaining - count)
                }
            }
        }
        return events
    }

    /// Called after each header byte; returns an event once the header is complete or wrong.
    private mutating func headerByteAdded() -> DemoWebSocketEvent? {
        if header.count == 2, let problem = firstBytesProblem() {
            state = .failed
            return .failure(closeCode: 1002, reason: problem)
        }
        guard header.count >= 2 else { return nil }
        let lengthCode = header[1] & 0x7f
        let lengthBytes = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0
        guard header.count == 2 + lengthBytes + 4 else { return nil }
        var length = UInt64(lengthCode)
        if lengthBytes > 0 {
            length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            if length >> 63 != 0 {
                state = .failed
                return .failure(closeCode: 1002, reason: "payload length has its top bit set")
            }
        }
        let maskStart = 2 + lengthBytes
        mask = (header[maskStart], header[maskStart + 1], header[maskStart + 2], header[maskStart + 3])
        maskOffset = 0
        let fin = header[0] & 0x80 != 0
        let opcode = header[0] & 0x0f
        header.removeAll(keepingCapacity: true)
        if opcode >= 8 {
            control.removeAll(keepingCapacity: true)
            if length == 0 { return finishControl(opcode) }
            state = .control(opcode: opcode, remaining: Int(length))
            return nil
        }
        inFragmentedMessage = !fin
        state = length == 0 ? .header : .payload(remaining: length)
        return .frame(DemoWebSocketFrameHeader(fin: fin, opcode: opcode, length: length))
    }

    /// Checks what the first two bytes alone can tell.
    private func firstBytesProblem() -> String? {
        let fin = header[0] & 0x80 != 0
        let opcode = header[0] & 0x0f
        if header[0] & 0x70 != 0 { return "reserved bits set without a negotiated extension" }
        if header[1] & 0x80 == 0 { return "client frames must be masked" }
        switch opcode {
        case 0:
            if !inFragmentedMessage { return "continuation frame without a message to continue" }
        case 1, 2:
            if inFragmentedMessage { return "new data frame inside a fragmented message" }
        case 8, 9, 10:
            if !fin { return "fragmented control frame" }
            if header[1] & 0x7f > 125 { return "control frame longer than 125 bytes" }
        default:
            return "unknown opcode \(opcode)"
        }
        return nil
    }

    private mutating func finishControl(_ opcode: UInt8) -> DemoWebSocketEvent {
        state = .header
        if opcode == 8 && control.count == 1 {
            state = .failed
            return .failure(closeCode: 1002, reason: "close frame with a one-byte payload")
        }
        return .control(opcode: opcode, payload: control)
    }

    private mutating func unmask(_ bytes: UnsafeRawBufferPointer, from start: Int, count: Int) -> [UInt8] {
        let key = [mask.0, mask.1, mask.2, mask.3]
        let phase = maskOffset
        maskOffset = (maskOffset + count) & 3
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = bytes[start + index] ^ key[(phase + index) & 3]
            }
            initialized = count
        }
    }
}
