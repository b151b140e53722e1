import FaultlineHTTP
import FaultlineConfig

extension HTTPHead {
    /// The head with a rewrite fault applied: another status, fields removed, fields added.
    func rewritten(by rewrite: RewriteFault) -> HTTPHead {
        var head = self
        if let status = rewrite.status {
            head.status = status
            head.reason = []
        }
        var headers = HTTPHeaders()
        for (name, value) in self.headers.pairs
        where !rewrite.removeHeaders.contains(where: { $0.lowercased() == name.lowercased() }) {
            headers.add(name: name, value: value)
        }
        for header in rewrite.addHeaders {
            headers.add(name: header.name, value: header.value)
        }
        head.headers = headers
        return head
    }
}
