import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of a small XML document with the line of its start tag, built by one
/// `XMLParser` pass; `path` is how errors name it (`network-security-config/domain-config[2]/pin-set`).
final class XMLNode {
    let name: String
    let attributes: [String: String]
    let line: Int
    private(set) weak var parent: XMLNode?
    private(set) var children: [XMLNode] = []
    var text = ""

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The element names from the root, with a 1-based index where siblings share a name.
    var path: String {
        guard let parent else { return name }
        let same = parent.children(name)
        let index = same.firstIndex { $0 === self }.map { same.count > 1 ? "[\($0 + 1)]" : "" } ?? ""
        return parent.path + "/" + name + index
    }

    /// Children named `name`.
    func children(_ name: String) -> [XMLNode] {
        children.filter { $0.name == name }
    }

    /// The text content, trimmed.
    var trimmedText: String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Appends `child` and makes this node its parent.
    func add(_ child: XMLNode) {
        child.parent = self
        children.append(child)
    }

    /// Parses `data` into its root element.
    static func parse(_ data: Data) -> Result<XMLNode, XMLSyntaxError> {
        if let refused = XMLSyntaxError.refusedBeforeParsing(data) { return .failure(refused) }
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let error = builder.syntaxError { return .failure(error) }
        guard parsed, let root = builder.root else { return .failure(.first(at: parser.lineNumber)) }
        return .success(root)
    }
}
