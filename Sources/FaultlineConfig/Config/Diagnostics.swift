/// Collects every error met during one validation pass, so a user sees all problems
/// of a file at once.
struct Diagnostics {
    private(set) var errors: [ConfigError] = []

    /// Records an error at `path`.
    mutating func add(_ path: String, _ message: String) {
        errors.append(ConfigError(path: path, message: message))
    }

    /// Records an error thrown by a parser that did not know the field path.
    mutating func add(_ path: String, _ error: ConfigError) {
        errors.append(ConfigError(path: error.path.isEmpty ? path : "\(path).\(error.path)", message: error.message))
    }

    /// The path of `key` inside the object at `path`.
    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// The path of element `index` of the array at `path`.
    static func join(_ path: String, _ index: Int) -> String {
        "\(path)[\(index)]"
    }
}
