/// Nested JSON for HAR documents, reusing `JSONWriter`'s string escaping and number
/// formats: `JSONWriter` writes one flat object per log line, while a HAR document nests
/// objects in arrays in objects, so commas are tracked per open container here.
struct HARJSONWriter: ~Copyable {
    private var json = JSONWriter()
    /// Per open container: whether the next value needs a comma before it.
    private var needsComma: [Bool] = []
    /// Set between a key and its value, which takes no comma.
    private var afterKey = false

    /// The document so far.
    var bytes: [UInt8] { json.bytes }

    /// Reserves room for about `count` bytes.
    mutating func reserve(_ count: Int) {
        json.out.reserve(count)
    }

    /// An object value, its members written by `body`.
    mutating func object(_ body: (inout HARJSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// An array value, its elements written by `body`.
    mutating func array(_ body: (inout HARJSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// Writes `"name":`; the next value written is the member's.
    mutating func key(_ name: String) {
        separate()
        json.string(name)
        json.out.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// A string value.
    mutating func string(_ text: String) {
        separate()
        json.string(text)
    }

    /// An integer value.
    mutating func integer(_ value: Int) {
        separate()
        json.integer(value)
    }

    /// A `true` or `false` value.
    mutating func bool(_ value: Bool) {
        separate()
        if value { json.out.append("true") } else { json.out.append("false") }
    }

    /// A duration in milliseconds with three decimals, from whole microseconds; HAR's
    /// "not applicable" -1 when nil.
    mutating func milliseconds(micros: Int64?) {
        separate()
        guard let micros else {
            json.integer(-1)
            return
        }
        // Written from integers so that timings computed in microseconds add up exactly.
        json.milliseconds(micros: UInt64(max(0, micros)))
    }

    /// A string member.
    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// A string member, left out when nil.
    mutating func optionalMember(_ name: String, _ value: String?) {
        guard let value else { return }
        member(name, value)
    }

    /// An integer member.
    mutating func member(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    /// A member that is an object.
    mutating func member(_ name: String, object body: (inout HARJSONWriter) -> Void) {
        key(name)
        object(body)
    }

    /// A member that is an array.
    mutating func member(_ name: String, array body: (inout HARJSONWriter) -> Void) {
        key(name)
        array(body)
    }

    /// A member that is an array of strings.
    mutating func member(_ name: String, strings: [String]) {
        member(name, array: { writer in
            for text in strings { writer.string(text) }
        })
    }

    /// A member that is an array of `{"name": …, "value": …}` objects, HAR's shape for
    /// headers, cookies and query parameters.
    mutating func member(_ name: String, pairs: [(name: String, value: String)]) {
        member(name, array: { writer in
            for pair in pairs {
                writer.object { item in
                    item.member("name", pair.name)
                    item.member("value", pair.value)
                }
            }
        })
    }

    /// Ends the document with a newline.
    mutating func finish() {
        json.out.append(10)
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        json.out.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        needsComma.removeLast()
        json.out.append(bracket)
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
        } else if let last = needsComma.last {
            if last { json.out.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }
}
