import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultlineSession {
    /// Makes every request of sessions built from `configuration` belong to this session:
    /// adds the `X-Faultline-Session` header to `httpAdditionalHeaders` (the proxy strips it
    /// before forwarding), so the app's own networking code runs unchanged against
    /// `proxyURL`.
    ///
    /// With `proxy: true` it also routes plain `http://` URLs through Faultline as an HTTP
    /// proxy (`connectionProxyDictionary`), so the app can keep its real base URL: Faultline
    /// then receives absolute-form targets (`GET http://host/path`), which it accepts and
    /// forwards in origin form to its upstream — the upstream is still the proxy's, whatever
    /// host the URL names. `https://` URLs are not routed: Faultline refuses CONNECT (405),
    /// so an app that talks HTTPS must use `proxyURL` (or an HTTPS listener) as its base URL.
    /// On Linux, swift-corelibs-foundation's `URLSession` ignores `connectionProxyDictionary`
    /// (it sets no proxy on libcurl), so there the app must use `proxyURL` as its base URL;
    /// the header part works everywhere.
    public func configure(_ configuration: URLSessionConfiguration, proxy: Bool = false) {
        var headers = configuration.httpAdditionalHeaders ?? [:]
        headers[Self.headerName] = id
        configuration.httpAdditionalHeaders = headers
        guard proxy, let host = proxyURL.host else { return }
        var dictionary = configuration.connectionProxyDictionary ?? [:]
        // The CFNetwork keys' values (kCFNetworkProxiesHTTPEnable, …), spelled out because
        // the constants do not exist outside Apple platforms.
        dictionary["HTTPEnable"] = 1
        dictionary["HTTPProxy"] = host
        dictionary["HTTPPort"] = proxyURL.port ?? 80
        configuration.connectionProxyDictionary = dictionary
    }

    /// Adds the session header to one request, for code that takes `URLRequest`s.
    public func apply(to request: inout URLRequest) {
        request.setValue(id, forHTTPHeaderField: Self.headerName)
    }
}
