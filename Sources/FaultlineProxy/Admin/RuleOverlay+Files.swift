import FaultlineConfig

extension RuleOverlay {
    /// The `body_file` paths of the rules added or replaced at runtime: files that must stay
    /// inside the config directory every time a snapshot reads them.
    var bodyFiles: Set<String> {
        var paths: Set<String> = []
        for route in front + back + Array(replaced.values) {
            for fault in route.faults {
                if case .status(let status) = fault.kind, case .file(let path) = status.body { paths.insert(path) }
            }
        }
        return paths
    }
}
