/// The release of Faultline, shown by `--version` and written into HAR files.
public enum FaultlineVersion {
    /// The version string, e.g. `0.1.0`.
    public static let current = "0.1.0"
}
