import Foundation
@testable import FaultlineConfig

/// JSON Pointers evaluated on JSON documents, as a rule's `json` conditions are: a pointer
/// string (any bytes) and a body through `JSONPointer` and `JSONField`. Invariants: no input
/// traps (array indexes are range-checked, escapes parsed); a pointer that parses round-trips
/// to its text; the empty pointer names the whole document; a condition meets nothing when
/// the body is not JSON.
///
/// Input: a pointer as a length-prefixed chunk, a byte choosing the condition form, a chunk
/// for the condition's text, then the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPointer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let text = input.string()
    let form = input.choose(4)
    let value = input.string()
    let body = input.rest()
    let condition: ValueCondition = [.present, .absent, .equals(value), .glob(value)][form]
    let field = JSONField(FieldCondition(name: text, condition: condition))
    let matchBody = MatchBody(bytes: body)
    let verdict = field.matches(matchBody)
    if let pointer = JSONPointer(text) {
        FuzzCheck.require(pointer.description == text, "pointer \(text) reads back as \(pointer.description)")
        let document = matchBody.parsed()
        if document == nil { FuzzCheck.require(!verdict, "a non-JSON body met \(condition) at \(text)") }
        if let document {
            _ = pointer.evaluate(document)
            if text.isEmpty { FuzzCheck.require(JSONPointer("")?.evaluate(document) != nil, "the empty pointer named nothing") }
        }
    } else {
        FuzzCheck.require(!verdict, "an unparsable pointer \(text) matched")
    }
    return 0
}
