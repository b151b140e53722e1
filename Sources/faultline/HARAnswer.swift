import Foundation

/// What the CLI reads of the admin API's `/har` answers: how many entries an export holds,
/// how many a clear removed.
struct HARAnswer: Decodable {
    /// The export's `log`.
    struct Log: Decodable {
        let entries: [Entry]?
    }

    /// An entry, only counted: its contents are written to the file as they came.
    struct Entry: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var log: Log?
    var cleared: Int?

    /// An empty answer, for a body that is not the JSON expected.
    init() {}

    /// The answer in `body`, or an empty one when it does not decode.
    init(decoding body: Data) {
        self = (try? JSONDecoder().decode(HARAnswer.self, from: body)) ?? HARAnswer()
    }
}
