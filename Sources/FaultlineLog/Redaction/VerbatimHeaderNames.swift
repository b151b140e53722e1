import FaultlineHTTP

/// The common header names whose values a `Redactor` logs as they are, spelled as they travel
/// (`Content-Type`), found by length and a case-insensitive byte compare: no normalised copy
/// of the name and no hashing for the headers nearly every message carries. A name not found
/// here takes `Redactor.redactHeader`'s full path, which decides the same way.
struct VerbatimHeaderNames: Sendable {
    /// The names of one length: their lowercase bytes back to back, and the names themselves.
    private struct Bucket: Sendable {
        var bytes: [UInt8] = []
        var names: [String] = []
    }

    /// Indexed by name length.
    private let buckets: [Bucket]

    /// The names of `lowercaseSpellings` for which `isVerbatim` holds (given normalised).
    init(lowercaseSpellings: [String], isVerbatim: (String) -> Bool) {
        var table = [Bucket](repeating: Bucket(), count: 33)
        for name in lowercaseSpellings where name.utf8.count < table.count && isVerbatim(RedactionName.normalize(name)) {
            table[name.utf8.count].bytes += Array(name.utf8)
            table[name.utf8.count].names.append(name)
        }
        buckets = table
    }

    /// The lowercase spelling of `name` when it is one of these names, else nil.
    func lowercased(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { lowercased(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The lowercase spelling of the name `input` holds when it is one of these names, else nil.
    func lowercased(bytes input: UnsafeRawBufferPointer) -> String? {
        guard input.count < buckets.count else { return nil }
        let bucket = buckets[input.count]
        return bucket.bytes.withUnsafeBytes { spellings -> String? in
            for index in bucket.names.indices {
                let start = index * input.count
                let spelling = UnsafeRawBufferPointer(rebasing: spellings[start..<(start + input.count)])
                if ASCII.equalsIgnoringCase(input, lowercase: spelling) { return bucket.names[index] }
            }
            return nil
        }
    }
}
