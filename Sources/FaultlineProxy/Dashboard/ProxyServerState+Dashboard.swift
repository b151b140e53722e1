extension ProxyServerState {
    /// Whether an exchange needs a record besides the log's and the HAR capture's: the global
    /// journal keeps one, or a dashboard is watching the live stream. (A session's journal is
    /// the caller's to add.)
    var keepsExchangeRecords: Bool { journal.isOn || live.isWatched }
}
