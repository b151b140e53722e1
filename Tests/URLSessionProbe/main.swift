import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A URLSession client in a process of its own, so that a test can run it inside a private
// mount namespace whose system trust store holds only the test CA (FoundationNetworking on
// Linux trusts the system store alone and has no API to add a CA). It sends the requests
// its arguments describe on one session, all at once, and prints one JSON object per
// request on stdout, in request order.
//
//   URLSessionProbe [--count N] [--method M] [--body-bytes N] [--header name:value]
//                   [--timeout seconds] [--proxy HOST:PORT | --default-proxy] URL
//
// `--proxy` sets connectionProxyDictionary's HTTP and HTTPS proxy to HOST:PORT;
// `--default-proxy` leaves the dictionary unset (so only the environment could name a
// proxy); without either the dictionary is empty.

struct Options {
    var url: URL?
    var count = 1
    var method = "GET"
    var bodyBytes = 0
    var headers: [(String, String)] = []
    var timeout: TimeInterval = 10
    var proxy: ProxyChoice = .none
}

enum ProxyChoice {
    case none
    case environmentDefault
    case explicit(host: String, port: Int)
}

struct Outcome: Encodable {
    var status: Int?
    var bodyBytes: Int?
    var headers: [String: String]?
    var errorCode: Int?
    var errorDescription: String?
}

func parse(_ arguments: [String]) -> Options? {
    var options = Options()
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--count": guard let value = iterator.next().flatMap({ Int($0) }), (1...1000).contains(value) else { return nil }
            options.count = value
        case "--method": guard let value = iterator.next() else { return nil }
            options.method = value
        case "--body-bytes": guard let value = iterator.next().flatMap({ Int($0) }), value >= 0 else { return nil }
            options.bodyBytes = value
        case "--header":
            guard let value = iterator.next(), let colon = value.firstIndex(of: ":") else { return nil }
            options.headers.append((String(value[..<colon]), String(value[value.index(after: colon)...])))
        case "--timeout": guard let value = iterator.next().flatMap({ TimeInterval($0) }), value > 0 else { return nil }
            options.timeout = value
        case "--proxy":
            guard let value = iterator.next(), let colon = value.lastIndex(of: ":"),
                  let port = Int(value[value.index(after: colon)...]), (1...65535).contains(port) else { return nil }
            options.proxy = .explicit(host: String(value[..<colon]), port: port)
        case "--default-proxy": options.proxy = .environmentDefault
        default:
            guard options.url == nil, let url = URL(string: argument) else { return nil }
            options.url = url
        }
    }
    return options.url == nil ? nil : options
}

guard let options = parse(Array(CommandLine.arguments.dropFirst())), let url = options.url else {
    FileHandle.standardError.write(Data("usage: URLSessionProbe [--count N] [--method M] [--body-bytes N] [--header name:value] [--timeout s] [--proxy HOST:PORT | --default-proxy] URL\n".utf8))
    exit(2)
}

let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = options.timeout
configuration.timeoutIntervalForResource = options.timeout * 2
switch options.proxy {
case .none: configuration.connectionProxyDictionary = [:]
case .environmentDefault: break
case .explicit(let host, let port):
    // The CFNetwork key names (kCFNetworkProxiesHTTPProxy …), which Linux does not declare.
    configuration.connectionProxyDictionary = [
        "HTTPEnable": 1, "HTTPProxy": host, "HTTPPort": port,
        "HTTPSEnable": 1, "HTTPSProxy": host, "HTTPSPort": port,
    ]
}
let session = URLSession(configuration: configuration)
let lock = NSLock()
nonisolated(unsafe) var outcomes = [Outcome](repeating: Outcome(), count: options.count)
let group = DispatchGroup()
for index in 0..<options.count {
    var request = URLRequest(url: url, timeoutInterval: options.timeout)
    request.httpMethod = options.method
    if options.bodyBytes > 0 { request.httpBody = Data(repeating: 0x61, count: options.bodyBytes) }
    for (name, value) in options.headers { request.setValue(value, forHTTPHeaderField: name) }
    group.enter()
    session.dataTask(with: request) { data, response, error in
        var outcome = Outcome()
        if let http = response as? HTTPURLResponse {
            outcome.status = http.statusCode
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
            }
            outcome.headers = fields
        }
        outcome.bodyBytes = data?.count
        if let error = error as NSError? {
            outcome.errorCode = error.code
            outcome.errorDescription = error.localizedDescription
        }
        lock.lock()
        outcomes[index] = outcome
        lock.unlock()
        group.leave()
    }.resume()
}
let finished = group.wait(timeout: .now() + options.timeout * 3)
session.invalidateAndCancel()
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
lock.lock()
for outcome in outcomes {
    if let line = try? encoder.encode(outcome) { print(String(decoding: line, as: UTF8.self)) }
}
lock.unlock()
exit(finished == .success ? 0 : 3)
