/// The dashboard's files (`ui/` in the source tree), compiled into the binary by
/// `scripts/embed-ui.py` as `DashboardAssets+Files.swift`: no file is read at run time, so
/// a static binary serves the page with nothing beside it.
enum DashboardAssets {
    /// One file: its media type and text.
    struct File: Sendable {
        let contentType: String
        let text: String
    }

    /// Whether `request` asks only for the page or one of its files (GET): those carry no data and
    /// load without the bearer token, so the page can ask for it. Host is still checked.
    static func isPublic(_ request: AdminRequest) -> Bool {
        guard request.method == "GET" else { return false }
        return request.path == "/" || request.path == "/ui" || request.path.hasPrefix("/ui/")
    }
}
