import Foundation
import Testing
@testable import FaultlineConfig

/// The `h2c` listener key and the `h2` ALPN protocol.
@Suite("HTTP/2 listener settings")
struct ListenerH2CTests {
    @Test func h2cDefaultsToOffAndCanBeTurnedOnForAPlainListener() throws {
        let json = #"{"listeners": [{"address": "127.0.0.1:0"}, {"address": "127.0.0.1:0", "h2c": true}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}}"#
        let config = try ConfigLoader.parse(Data(json.utf8), file: nil)
        #expect(config.listeners.map(\.h2c) == [false, true])
    }

    @Test func h2cOnATLSListenerIsRefused() {
        let json = #"{"listeners": [{"address": "127.0.0.1:0", "h2c": true, "tls": {"certificate": "c", "key": "k"}}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}}"#
        #expect(configErrorsSkippingFiles(json) == [
            "listeners[0].h2c: h2c (HTTP/2 in cleartext) applies to plain listeners only; a TLS listener offers h2 by ALPN (tls.alpn)",
        ])
    }

    @Test func h2cMustBeABoolean() {
        let json = #"{"listeners": [{"address": "127.0.0.1:0", "h2c": "yes"}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}}"#
        #expect(configErrors(json).count == 1)
    }

    @Test func h2CanBeOfferedAloneOrAfterHTTP1() throws {
        for alpn in [#"["h2"]"#, #"["http/1.1", "h2"]"#] {
            let config = try ConfigLoader.parse(Data(tlsListener(#"{"certificate": "c", "key": "k", "alpn": \#(alpn)}"#).utf8),
                                                file: nil, checkFiles: false)
            #expect(config.listeners.first?.tls?.alpn.contains("h2") == true)
        }
    }

    @Test func overridingTheAddressKeepsH2C() throws {
        let json = #"{"listeners": [{"address": "127.0.0.1:0", "h2c": true}], "upstreams": {"demo": {"url": "http://127.0.0.1:8081"}}}"#
        let config = try ConfigLoader.parse(Data(json.utf8), file: nil)
        let moved = config.overriding(workers: nil, firstListenerAddress: config.listeners[0].address)
        #expect(moved.listeners[0].h2c)
    }
}
