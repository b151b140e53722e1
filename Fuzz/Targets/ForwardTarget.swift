import FaultlineHTTP

/// The forward proxy's request targets: `ForwardTarget.connect` (a CONNECT authority) and
/// `ForwardTarget.absolute` (an absolute-form URL) on any bytes. Invariants: no input traps;
/// an accepted target has a port 1–65535, a non-empty host without `@`, `/`, space or
/// percent sign, and a Host value that parses back (`HTTPAuthority`) to the same port; an
/// absolute target's origin form starts with `/` and carries no fragment; CONNECT never
/// accepts userinfo or an authority over `ForwardTarget.maxAuthorityBytes`.
///
/// Input: a byte choosing the parser, then the target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForwardTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let connect = input.flag()
    let bytes = input.rest()
    if connect {
        if case .success(let target) = ForwardTarget.connect(bytes) {
            check(target, bytes)
            FuzzCheck.require(!bytes.contains(UInt8(ascii: "@")), "CONNECT accepted userinfo: \(FuzzCheck.show(bytes))")
            FuzzCheck.require(bytes.count <= ForwardTarget.maxAuthorityBytes, "CONNECT accepted \(bytes.count) bytes")
        }
    } else if case .success(let (target, origin)) = ForwardTarget.absolute(bytes) {
        check(target, bytes)
        FuzzCheck.require(origin.first == UInt8(ascii: "/"), "origin form without /: \(FuzzCheck.show(origin))")
        FuzzCheck.require(!origin.contains(UInt8(ascii: "#")), "origin form with a fragment: \(FuzzCheck.show(origin))")
    }
    return 0
}

private func check(_ target: ForwardTarget, _ input: [UInt8]) {
    let host = Array(target.host.utf8)
    FuzzCheck.require(target.port >= 1, "port 0 accepted: \(FuzzCheck.show(input))")
    FuzzCheck.require(!host.isEmpty && !host.contains { [UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: " "), UInt8(ascii: "%")].contains($0) },
                      "bad host \(FuzzCheck.show(host)) from \(FuzzCheck.show(input))")
    let header = Array(target.hostHeader.utf8)
    let parsed = HTTPAuthority(header)
    FuzzCheck.require(parsed != nil, "Host value \(FuzzCheck.show(header)) does not parse back")
    FuzzCheck.require((parsed?.port ?? 80) == target.port, "Host value \(FuzzCheck.show(header)) names another port than \(target.port)")
}
