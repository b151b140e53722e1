import Foundation
import FaultlineTestSupport

/// A Python origin for the redaction tests. It prints every request it receives as one JSON
/// line (`{"event": "request", "target", "head", "body", "body_bytes"}`, the head verbatim
/// and the body up to 192 KiB) so a test can prove a secret really reached it, and answers
/// every request with secrets of its own (given on the command line as a JSON object):
///
/// - `Set-Cookie: session=<set_cookie_session>; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/; HttpOnly` and
///   `Set-Cookie: theme=<set_cookie_theme>; SameSite=Lax`
/// - `X-Auth-Token: <auth_token>`, `Location: /next?code=<location_code>&page=2`,
///   `X-Visible-Response: visible-response-neighbour`
/// - paths under `/text`: `text/plain` with `status: ok-visible`, `access_token=<text_token>`
///   and `Authorization: Bearer <text_bearer>` lines
/// - paths under `/slow`: the same answer after 2 s (for upstream timeouts)
/// - paths under `/echo`: the request echoed as httpbin does, `application/json`
///   `{"method", "url": "http://HOST/TARGET", "headers": {Name: value…}, "args": {name: value…},
///   "data": "<the body as a string>", "json": <the body parsed, when JSON>, "form": {…}}` with
///   `"php_url"` (the URL with `\/` escapes) last; under `/echo-text` the same as `text/plain`
///   lines (`url: …`, `Name: value`, `data: …`)
/// - any other path: `application/json`
///   `{"user": "alice-visible", "token": <body_token>, "profile": {"plan": "pro-visible", "refresh_token": <body_refresh>}}`
///
/// Apart from `/echo`, it never echoes what it received, so whatever reaches a log came from
/// Faultline's records.
final class CanaryOrigin: Sendable {
    /// The names of the response secrets the script expects.
    static let responseSecretNames = [
        "set_cookie_session", "set_cookie_theme", "auth_token", "location_code",
        "text_token", "text_bearer", "body_token", "body_refresh",
    ]

    private let process: PythonScriptProcess

    var port: Int { process.port }
    var output: OutputLog { process.output }

    private init(process: PythonScriptProcess) { self.process = process }

    /// Starts the origin answering with `secrets` (a value for each of `responseSecretNames`).
    static func start(secrets: [String: String]) async throws -> CanaryOrigin {
        let data = try JSONSerialization.data(withJSONObject: secrets, options: [.sortedKeys])
        let process = try await PythonScriptProcess.start("canary_origin.py", source: source, marker: "canary origin listening on ") {
            [try $0.write("secrets.json", data)]
        }
        return CanaryOrigin(process: process)
    }

    /// The requests received so far, decoded.
    var requests: [[String: Any]] {
        output.settledLines.compactMap { line in
            guard line.text.hasPrefix("{"), let object = LogFile.parse(line.text), object["event"] as? String == "request" else {
                return nil
            }
            return object
        }
    }

    /// Everything the origin printed (request heads and bodies included).
    var received: String { output.text }

    func kill() { process.kill() }

    deinit { kill() }

    static let source = PythonOriginPrelude.source + #"""
secrets = json.load(open(sys.argv[1]))

def answer(path):
    if path.startswith("/text"):
        body = ("status: ok-visible\naccess_token=%s\nAuthorization: Bearer %s\n" % (secrets["text_token"], secrets["text_bearer"])).encode()
        content_type = "text/plain; charset=utf-8"
    else:
        body = json.dumps({"user": "alice-visible", "token": secrets["body_token"],
                           "profile": {"plan": "pro-visible", "refresh_token": secrets["body_refresh"]}}).encode()
        content_type = "application/json"
    head = ("HTTP/1.1 200 OK\r\n"
            "Content-Type: %s\r\n"
            "Content-Length: %d\r\n"
            "Set-Cookie: session=%s; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/; HttpOnly\r\n"
            "Set-Cookie: theme=%s; SameSite=Lax\r\n"
            "X-Auth-Token: %s\r\n"
            "Location: /next?code=%s&page=2\r\n"
            "X-Visible-Response: visible-response-neighbour\r\n"
            "\r\n") % (content_type, len(body), secrets["set_cookie_session"], secrets["set_cookie_theme"],
                       secrets["auth_token"], secrets["location_code"])
    return head.encode() + body

def echo(method, target, lines, body, headers):
    from urllib.parse import parse_qsl
    url = "http://%s%s" % (headers.get("host", ""), target)
    named = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        named[name.strip()] = value.strip()
    query = target.split("?", 1)[1] if "?" in target else ""
    text = body.decode("latin-1")
    doc = {"method": method, "url": url, "headers": named,
           "args": dict(parse_qsl(query, keep_blank_values=True)), "data": text}
    content_type = headers.get("content-type", "")
    if "json" in content_type:
        try:
            doc["json"] = json.loads(text)
        except ValueError:
            pass
    if "form" in content_type:
        doc["form"] = dict(parse_qsl(text, keep_blank_values=True))
    if target.startswith("/echo-text"):
        out = "url: %s\n" % url + "".join("%s: %s\n" % item for item in named.items()) + "data: %s\n" % text
        content_type = "text/plain; charset=utf-8"
    else:
        out = json.dumps(doc)[:-1] + ', "php_url": "%s"}' % url.replace("/", "\\/")
        content_type = "application/json"
    payload = out.encode("latin-1", "replace")
    return ("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (content_type, len(payload))).encode() + payload

def handle(sock, n):
    conn = Conn(sock, n, recv_size=1 << 20)
    while True:
        head = conn.until(b"\r\n\r\n").decode("latin-1")
        lines = head.split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        body, _ = read_body(conn, headers)
        log(json.dumps({"event": "request", "target": target, "head": head,
                        "body": body[:196608].decode("latin-1"), "body_bytes": len(body)}))
        path = target.split("?", 1)[0]
        if "://" in path:
            path = "/" + path.split("://", 1)[1].split("/", 1)[-1]
        if path.startswith("/slow"):
            time.sleep(2)
        if path.startswith("/echo"):
            sock.sendall(echo(method, target, lines, body, headers))
        else:
            sock.sendall(answer(path))
        if "close" in headers.get("connection", "").lower():
            return

serve(handle, name="canary origin", quiet=True)
"""#
}
