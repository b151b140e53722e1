import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The line of every value of an XML property list, by key path, found with one
/// `XMLParser` pass (the property list decoder keeps no positions). Also reports where a
/// malformed document stops parsing.
final class PlistLineMap: NSObject, XMLParserDelegate {
    private enum Frame {
        case dictionary(path: KeyPath, pendingKey: String?)
        case array(path: KeyPath, nextIndex: Int)
    }

    private static let valueElements: Set<String> = ["dict", "array", "string", "integer", "real", "true", "false", "date", "data"]

    /// Lines by rendered key path.
    private(set) var lines: [KeyPath: Int] = [:]
    private var stack: [Frame] = []
    private var keyText: String?
    private var started = false
    private var syntaxError: XMLSyntaxError?

    /// Maps `data`; nil with the parser's message and line when the XML is malformed.
    static func map(_ data: Data) -> Result<PlistLineMap, XMLSyntaxError> {
        if let refused = XMLSyntaxError.refusedBeforeParsing(data) { return .failure(refused) }
        let map = PlistLineMap()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = map
        let parsed = parser.parse()
        if let error = map.syntaxError { return .failure(error) }
        guard parsed else { return .failure(.first(at: parser.lineNumber)) }
        return .success(map)
    }

    /// The line of the value at `path`, or of its nearest ancestor that has one.
    func line(of path: KeyPath) -> Int? {
        var components = path.plain.components
        while true {
            if let line = lines[KeyPath(components: components)] { return line }
            if components.isEmpty { return nil }
            components.removeLast()
        }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if elementName == "key" {
            keyText = ""
            return
        }
        guard PlistLineMap.valueElements.contains(elementName) else { return }
        let path: KeyPath
        switch stack.last {
        case .dictionary(let parent, let key)?:
            path = parent.appending(key ?? "")
            stack[stack.count - 1] = .dictionary(path: parent, pendingKey: nil)
        case .array(let parent, let index)?:
            path = parent.appending(index: index)
            stack[stack.count - 1] = .array(path: parent, nextIndex: index + 1)
        case nil:
            guard !started else { return }
            started = true
            path = .root
        }
        lines[path] = parser.lineNumber
        if elementName == "dict" { stack.append(.dictionary(path: path, pendingKey: nil)) }
        if elementName == "array" { stack.append(.array(path: path, nextIndex: 0)) }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if syntaxError == nil { syntaxError = .first(at: parser.lineNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if keyText != nil { keyText? += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "key":
            if case .dictionary(let path, _)? = stack.last {
                stack[stack.count - 1] = .dictionary(path: path, pendingKey: keyText ?? "")
            }
            keyText = nil
        case "dict", "array":
            if !stack.isEmpty { stack.removeLast() }
        default:
            break
        }
    }
}
