extension RouteTable {
    /// Same as the buffer form, for tests and non-hot-path callers.
    public func match(host: String?, method: String, path: String) -> CompiledRoute? {
        RouteTable.withBytes(host: host, method: method, path: path) { match(host: $0, method: $1, path: $2) }
    }

    /// `linearMatch` with strings, for tests.
    func linearMatch(host: String?, method: String, path: String) -> CompiledRoute? {
        RouteTable.withBytes(host: host, method: method, path: path) { linearMatch(host: $0, method: $1, path: $2) }
    }

    /// Calls `body` with the UTF-8 bytes of each string.
    private static func withBytes<Result>(
        host: String?, method: String, path: String,
        _ body: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Result
    ) -> Result {
        var method = method
        var path = path
        return method.withUTF8 { methodBytes in
            path.withUTF8 { pathBytes in
                guard var host else {
                    return body(nil, UnsafeRawBufferPointer(methodBytes), UnsafeRawBufferPointer(pathBytes))
                }
                return host.withUTF8 { hostBytes in
                    body(UnsafeRawBufferPointer(hostBytes), UnsafeRawBufferPointer(methodBytes), UnsafeRawBufferPointer(pathBytes))
                }
            }
        }
    }
}
