/// Encodes exchange records as a HAR 1.2 document
/// (http://www.softwareishard.com/blog/har-12-spec/) that Chrome and Firefox dev tools,
/// Charles and Proxyman load. It adds nothing the records do not hold, so the document
/// is exactly as redacted as the log.
public enum HARDocumentEncoder {
    /// The document `{"log": {...}}` with one entry per record, in the order given;
    /// `creatorVersion` goes in `log.creator.version`, `comment` (when set) in `log.comment`.
    public static func encode(_ records: [LogRecord], creatorVersion: String, comment: String? = nil) -> [UInt8] {
        var writer = HARJSONWriter()
        writer.reserve(512 + records.count * 1024)
        writer.object { root in
            root.member("log", object: { log in
                log.member("version", "1.2")
                log.member("creator", object: { creator in
                    creator.member("name", "Faultline")
                    creator.member("version", creatorVersion)
                })
                // No pages: a proxy sees no page loads, and HAR makes `pageref` optional.
                log.member("pages", array: { _ in })
                log.member("entries", array: { entries in
                    for record in records { HAREntryEncoder(record: record).write(to: &entries) }
                })
                log.optionalMember("comment", comment)
            })
        }
        writer.finish()
        return writer.bytes
    }
}
