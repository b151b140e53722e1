import Foundation

#if !FAULTLINE_LAUNCH
/// Where Foundation has no `Process` (iOS, tvOS, watchOS, visionOS), nothing is launched:
/// a `Faultline` comes from `connect` only, so this is never made.
final class LaunchedProcesses: Sendable {
    let directory: URL
    var proxyPID: Int32? { nil }
    var originPID: Int32? { nil }

    private init(directory: URL) {
        self.directory = directory
    }

    func stop() {}
}
#endif
