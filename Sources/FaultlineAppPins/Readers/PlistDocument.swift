import Foundation

/// A property list (XML or binary) or JSON document decoded by Foundation, with the lines
/// of its values where the format has lines, and typed lookups whose errors name the file,
/// the key path and the line.
struct PlistDocument {
    /// How lines are found.
    enum Format {
        case xmlPlist(PlistLineMap)
        case binaryPlist
        case json(JSONLineFinder)
    }

    /// The file as given.
    let file: String
    /// The decoded root.
    let root: Any
    /// The encoding.
    let format: Format

    /// Decodes a property list: binary when it starts with `bplist`, XML otherwise.
    static func plist(_ data: Data, file: String) throws(AppPinConfigurationError) -> PlistDocument {
        let binary = data.starts(with: Array("bplist".utf8))
        let format: Format
        if binary {
            format = .binaryPlist
        } else {
            switch PlistLineMap.map(data) {
            case .success(let map): format = .xmlPlist(map)
            case .failure(let error):
                throw AppPinConfigurationError(file: file, keyPath: "", problem: "not an XML property list: \(error.message)",
                                               location: .line(error.line))
            }
        }
        do {
            let root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            return PlistDocument(file: file, root: root, format: format)
        } catch {
            throw AppPinConfigurationError(file: file, keyPath: "",
                                           problem: binary ? "not a valid binary property list" : "not a valid property list",
                                           location: binary ? .binaryPlist : .unknown)
        }
    }

    /// Decodes a JSON document.
    static func json(_ data: Data, file: String) throws(AppPinConfigurationError) -> PlistDocument {
        do {
            let root = try JSONSerialization.jsonObject(with: data, options: [])
            return PlistDocument(file: file, root: root, format: .json(JSONLineFinder(data)))
        } catch {
            throw AppPinConfigurationError(file: file, keyPath: "", problem: "not valid JSON", location: .unknown)
        }
    }

    /// Where the value at `path` is.
    func location(_ path: KeyPath) -> AppPinLocation {
        switch format {
        case .xmlPlist(let map): AppPinLocation(map.line(of: path))
        case .binaryPlist: .binaryPlist
        case .json(let finder): AppPinLocation(finder.line(of: path))
        }
    }

    /// The line of `path`, when the format has lines.
    func line(_ path: KeyPath) -> Int? {
        if case .line(let line) = location(path) { return line }
        return nil
    }

    /// An error at `path`.
    func error(_ path: KeyPath, _ problem: String) -> AppPinConfigurationError {
        AppPinConfigurationError(file: file, keyPath: path.description, problem: problem, location: location(path))
    }

    /// A warning line at `path`.
    func warning(_ path: KeyPath, _ text: String) -> String {
        "\(path): \(text)\(location(path).suffix)"
    }

    /// The dictionary at `path` (`value` is what was found there).
    func dictionary(_ value: Any?, at path: KeyPath) throws(AppPinConfigurationError) -> [String: Any] {
        guard let dictionary = value as? [String: Any] else { throw error(path, "expected a dictionary, found \(PlistDocument.kind(value))") }
        return dictionary
    }

    /// The array at `path`.
    func array(_ value: Any, at path: KeyPath) throws(AppPinConfigurationError) -> [Any] {
        guard let array = value as? [Any] else { throw error(path, "expected an array, found \(PlistDocument.kind(value))") }
        return array
    }

    /// The string at `path`.
    func string(_ value: Any, at path: KeyPath) throws(AppPinConfigurationError) -> String {
        guard let string = value as? String else { throw error(path, "expected a string, found \(PlistDocument.kind(value))") }
        return string
    }

    /// The boolean at `path` (property list `<true/>`/`<false/>`, JSON `true`/`false`).
    func bool(_ value: Any, at path: KeyPath) throws(AppPinConfigurationError) -> Bool {
        if let number = value as? NSNumber, PlistDocument.isBoolean(number) { return number.boolValue }
        if let bool = value as? Bool { return bool }
        throw error(path, "expected a boolean, found \(PlistDocument.kind(value))")
    }

    /// Whether `number` came from a boolean (JSON and plist booleans bridge to NSNumber).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" || type(of: number) == type(of: NSNumber(value: true))
    }

    /// A short name of what a value is, for messages.
    static func kind(_ value: Any?) -> String {
        switch value {
        case nil: "nothing"
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is Bool: "a boolean"
        case is NSNumber: "a number"
        case is Date: "a date"
        case is Data: "data"
        default: "an unsupported value"
        }
    }
}
