/// The part of a response body part that goes to the client.
struct ResponseBodyPart: Equatable {
    /// How many bytes from the start of the part in hand (a cut may keep fewer).
    var count: Int
    /// Replace the first byte so no JSON parser accepts the body (its length intact).
    var corruptFirstByte = false
    /// Send as one chunk.
    var chunked = false
}
