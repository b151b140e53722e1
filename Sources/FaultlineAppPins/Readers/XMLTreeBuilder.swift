import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds the tree from the parser's events.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLNode?
    var syntaxError: XMLSyntaxError?
    private var stack: [XMLNode] = []

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if syntaxError == nil { syntaxError = .first(at: parser.lineNumber) }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        let node = XMLNode(name: elementName, attributes: attributes, line: parser.lineNumber)
        if let parent = stack.last { parent.add(node) } else if root == nil { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if !stack.isEmpty { stack.removeLast() }
    }
}
