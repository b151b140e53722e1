import FaultlineConfig
import FaultlineTLS

/// SPKI pins as teams paste them, through `PinParser.parse`. Invariants: no input traps;
/// a refusal has a message; an accepted pin reads back to itself from every spelling
/// Faultline documents (`sha256/…`, `sha256//…`, `pin-sha256="…"`, bare base64, with
/// surrounding whitespace); and a pin built from any 32 bytes is accepted in each of them.
///
/// Input: a mode byte; then either text to parse, or 32 digest bytes and a spelling choice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPinParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    if input.flag() {
        let text = String(decoding: input.rest(), as: UTF8.self)
        do throws(PinParseError) {
            let pin = try PinParser.parse(text)
            PinSpellings.requireRoundTrip(pin, from: text)
        } catch {
            FuzzCheck.require(!error.message.isEmpty, "pin: empty message for \(FuzzCheck.show(text))")
        }
    } else {
        var digest: [UInt8] = []
        for _ in 0..<SPKIPinValue.digestLength { digest.append(input.byte()) }
        guard let pin = SPKIPinValue(digest: digest) else { FuzzCheck.fail("pin: 32 bytes refused as a digest") }
        PinSpellings.requireRoundTrip(pin, from: "(digest bytes)")
    }
    return 0
}

/// The documented spellings of a pin.
enum PinSpellings {
    static func spellings(_ pin: SPKIPinValue) -> [String] {
        let base64 = pin.base64
        return [pin.description, base64, "sha256//\(base64)", "pin-sha256=\"\(base64)\"", "pin-sha256=\(base64);",
                "  \(pin.description)\n", "SHA256/\(base64)"]
    }

    static func requireRoundTrip(_ pin: SPKIPinValue, from source: String) {
        for spelling in spellings(pin) {
            do throws(PinParseError) {
                let again = try PinParser.parse(spelling)
                FuzzCheck.require(again == pin, "pin: \(FuzzCheck.show(spelling)) reads as \(again), expected \(pin) (from \(FuzzCheck.show(source)))")
            } catch {
                FuzzCheck.fail("pin: \(FuzzCheck.show(spelling)) refused: \(error.message) (from \(FuzzCheck.show(source)))")
            }
        }
    }
}
