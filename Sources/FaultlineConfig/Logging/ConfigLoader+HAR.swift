extension ConfigLoader {
    /// The keys of the `har` section, in the order they are listed in messages.
    static let harKeys = ["enabled", "max_entries", "max_bytes", "bodies", "body_max_bytes"]

    /// The top-level `har` section; defaults when absent.
    static func readHAR(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> HARConfig {
        let defaults = HARConfig()
        guard let object = top.object("har", known: harKeys, &diagnostics) else { return defaults }
        return HARConfig(
            enabled: object.bool("enabled", default: defaults.enabled, &diagnostics),
            maxEntries: object.int("max_entries", in: 1...100_000, default: defaults.maxEntries, &diagnostics),
            maxBytes: object.int("max_bytes", in: 65_536...1_073_741_824, default: defaults.maxBytes, &diagnostics),
            bodies: object.bool("bodies", default: defaults.bodies, &diagnostics),
            bodyMaxBytes: object.int("body_max_bytes", in: 0...16_777_216, default: defaults.bodyMaxBytes, &diagnostics))
    }
}
