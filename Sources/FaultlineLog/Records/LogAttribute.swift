/// An extra attribute of a pin, fault or TLS record (`faultline.pin.chain`,
/// `tls.protocol.version`…), its values already redacted. A record holds each key once:
/// what repeats (the certificates of a chain, the pins that matched) is one attribute
/// whose value is an array.
public struct LogAttribute: Sendable, Equatable {
    /// The attribute's shape in a JSON line.
    public enum Value: Sendable, Equatable {
        /// A string.
        case string(String)
        /// An array of strings.
        case strings([String])
        /// An array of objects, each with unique keys in the given order.
        case objects([[LogField]])
    }

    /// The key.
    public let name: String
    /// The redacted value.
    public let value: Value

    /// The UTF-8 length of its text plus `overhead` per string, for size estimates.
    func estimatedBytes(overhead: Int) -> Int {
        var total = name.utf8.count + overhead
        switch value {
        case .string(let text):
            total += text.utf8.count
        case .strings(let texts):
            for text in texts { total += text.utf8.count + overhead }
        case .objects(let objects):
            for object in objects {
                for field in object { total += field.name.utf8.count + field.value.utf8.count + overhead }
            }
        }
        return total
    }
}
