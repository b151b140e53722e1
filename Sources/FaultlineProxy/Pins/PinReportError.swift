/// Why a pin failure report was refused: the status (400 malformed, 413 too large), the
/// report field to blame when one is (`known-pins[1]`), and what is wrong with it.
struct PinReportError: Error, Sendable, Equatable {
    let status: Int
    let field: String?
    let message: String

    /// A 400 naming `field`.
    init(field: String?, _ message: String) {
        status = 400
        self.field = field
        self.message = field.map { "\($0): \(message)" } ?? message
    }

    /// A 413 for a body over `limit` bytes.
    init(tooLarge size: Int, limit: Int) {
        status = 413
        field = nil
        message = "pin failure report of \(size) bytes is larger than \(limit) bytes"
    }

    /// The admin refusal it becomes.
    var refusal: AdminRefusal {
        AdminRefusal(status, message, field: field)
    }
}
