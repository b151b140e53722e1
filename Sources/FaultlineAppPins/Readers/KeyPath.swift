/// A path into a property list or JSON document, rendered the way error messages spell
/// it: `NSAppTransportSecurity.NSPinnedDomains["api.example.com"].NSPinnedLeafIdentities[0]`.
struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    /// One step: a dictionary key or an array index.
    enum Component: Hashable, Sendable {
        case key(String)
        /// A key that is data (a domain name), always shown quoted in brackets.
        case name(String)
        case index(Int)
    }

    /// The steps from the root.
    let components: [Component]

    /// The root.
    static let root = KeyPath(components: [])

    /// This path extended by a key.
    func appending(_ key: String) -> KeyPath {
        KeyPath(components: components + [.key(key)])
    }

    /// This path extended by a key that is a name (a pinned domain).
    func appending(name: String) -> KeyPath {
        KeyPath(components: components + [.name(name)])
    }

    /// The same path with names as plain keys, as documents store them.
    var plain: KeyPath {
        KeyPath(components: components.map { component in
            if case .name(let name) = component { return .key(name) }
            return component
        })
    }

    /// This path extended by an index.
    func appending(index: Int) -> KeyPath {
        KeyPath(components: components + [.index(index)])
    }

    /// Keys made of letters, digits, `_` and `-` are joined with dots; others (domain
    /// names) are quoted in brackets, as are indices.
    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) && !key.isEmpty {
                    text += (text.isEmpty ? "" : ".") + key
                } else {
                    text += "[\"\(key)\"]"
                }
            case .name(let name):
                text += "[\"\(name)\"]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
