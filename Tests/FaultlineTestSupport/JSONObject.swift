import Foundation

/// Decodes a JSON object body for assertions; fails with the body in the message.
public enum JSONObject {
    /// The object `bytes` hold; throws when they hold anything else.
    public static func parse(_ bytes: some Sequence<UInt8>) throws -> [String: Any] {
        let data = Data(bytes)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(String(decoding: data, as: UTF8.self).prefix(500))")
        }
        return object
    }
}
