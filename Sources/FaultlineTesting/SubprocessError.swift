import Foundation

#if FAULTLINE_LAUNCH
/// Why a child could not be started.
package struct SubprocessError: Error, CustomStringConvertible {
    /// What went wrong, for a test's failure message.
    package let description: String

    init(_ description: String) { self.description = description }
}
#endif
