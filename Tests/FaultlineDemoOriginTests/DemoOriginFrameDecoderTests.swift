import Testing
@testable import FaultlineDemoOrigin

/// Decoder output normalised so that any split of the input compares equal: payload pieces of
/// one frame are joined.
private func decodeFrames(_ input: [UInt8], cuts: [Int] = []) -> [DemoWebSocketEvent] {
    var decoder = DemoWebSocketFrameDecoder()
    var events: [DemoWebSocketEvent] = []
    var start = 0
    for cut in cuts.sorted() + [input.count] where cut >= start && cut <= input.count {
        let piece = Array(input[start..<cut])
        events += piece.withUnsafeBytes { decoder.feed($0) }
        start = cut
    }
    var joined: [DemoWebSocketEvent] = []
    for event in events {
        if case .payload(let more) = event, case .payload(let sofar)? = joined.last {
            joined[joined.count - 1] = .payload(sofar + more)
        } else if case .payload(let bytes) = event, bytes.isEmpty {
            continue
        } else {
            joined.append(event)
        }
    }
    return joined
}

private func header(_ fin: Bool, _ opcode: UInt8, _ length: Int) -> DemoWebSocketEvent {
    .frame(DemoWebSocketFrameHeader(fin: fin, opcode: opcode, length: UInt64(length)))
}

@Suite("Demo WebSocket frame decoder")
struct DemoOriginFrameDecoderTests {
    @Test func everySplitGivesTheSameEvents() {
        let medium = (0..<300).map { UInt8($0 & 0xff) }
        let input = demoMaskedFrame(opcode: 1, payload: Array("Hello".utf8), fin: false)
            + demoMaskedFrame(opcode: 9, payload: [1, 2, 3])
            + demoMaskedFrame(opcode: 0, payload: medium)
            + demoMaskedFrame(opcode: 2, payload: [])
            + demoMaskedFrame(opcode: 10, payload: [])
            + demoMaskedFrame(opcode: 8, payload: [0x03, 0xe8, 0x62, 0x79, 0x65])
        let expected: [DemoWebSocketEvent] = [
            header(false, 1, 5), .payload(Array("Hello".utf8)),
            .control(opcode: 9, payload: [1, 2, 3]),
            header(true, 0, 300), .payload(medium),
            header(true, 2, 0),
            .control(opcode: 10, payload: []),
            .control(opcode: 8, payload: [0x03, 0xe8, 0x62, 0x79, 0x65]),
        ]
        #expect(decodeFrames(input) == expected)
        for cut in 0...input.count {
            #expect(decodeFrames(input, cuts: [cut]) == expected, "cut at \(cut)")
        }
        #expect(decodeFrames(input, cuts: Array(0...input.count)) == expected)
    }

    @Test func lengthEncodings() {
        for length in [0, 125, 126, 127, 65535, 65536, 70_000] {
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            let frame = demoMaskedFrame(opcode: 2, payload: payload)
            let expected: [DemoWebSocketEvent] = length == 0 ? [header(true, 2, 0)] : [header(true, 2, length), .payload(payload)]
            #expect(decodeFrames(frame) == expected, "length \(length)")
            #expect(decodeFrames(frame, cuts: [1, 2, 3, 5, 9, 13, frame.count / 2]) == expected, "split length \(length)")
        }
    }

    @Test func encoderRoundTripsHeaderLengths() {
        #expect(DemoWebSocketFrame.header(fin: true, opcode: 1, length: 5) == [0x81, 5])
        #expect(DemoWebSocketFrame.header(fin: false, opcode: 2, length: 300) == [0x02, 126, 1, 44])
        #expect(DemoWebSocketFrame.header(fin: true, opcode: 2, length: 70_000) == [0x82, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
    }

    @Test(arguments: [
        ([UInt8]([0x81, 0x02, 0x68, 0x69]), "masked"),
        ([0xc1, 0x80, 0, 0, 0, 0], "reserved"),
        ([0x83, 0x80, 0, 0, 0, 0], "opcode"),
        ([0x80, 0x80, 0, 0, 0, 0], "continuation"),
        ([0x09, 0x80, 0, 0, 0, 0], "fragmented control"),
        ([0x89, 0xfe, 0, 200, 0, 0, 0, 0], "125"),
        ([0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], "top bit"),
        ([0x88, 0x81, 0, 0, 0, 0, 7], "one-byte"),
    ])
    func protocolErrors(input: [UInt8], reasonContains: String) {
        let events = decodeFrames(input)
        guard case .failure(let code, let reason)? = events.last else {
            Issue.record("no failure for \(reasonContains): \(events)")
            return
        }
        #expect(code == 1002)
        #expect(reason.contains(reasonContains))
        // Nothing more is decoded after a failure.
        var decoder = DemoWebSocketFrameDecoder()
        _ = input.withUnsafeBytes { decoder.feed($0) }
        let after = demoMaskedFrame(opcode: 1, payload: [1]).withUnsafeBytes { decoder.feed($0) }
        #expect(after.isEmpty)
    }

    @Test func newDataFrameInsideFragmentedMessageFails() {
        let input = demoMaskedFrame(opcode: 1, payload: [1], fin: false) + demoMaskedFrame(opcode: 2, payload: [2])
        guard case .failure(1002, _)? = decodeFrames(input).last else {
            Issue.record("expected a failure")
            return
        }
    }
}
