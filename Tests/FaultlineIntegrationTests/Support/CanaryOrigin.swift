import Foundation

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

    let child: ChildProcess
    let port: Int
    private let directory: TemporaryDirectory

    var output: OutputLog { child.output }

    private init(child: ChildProcess, port: Int, directory: TemporaryDirectory) {
        self.child = child
        self.port = port
        self.directory = directory
    }

    /// Starts the origin answering with `secrets` (a value for each of `responseSecretNames`).
    static func start(secrets: [String: String]) async throws -> CanaryOrigin {
        let directory = try TemporaryDirectory()
        let script = try directory.write("canary_origin.py", source)
        let data = try JSONSerialization.data(withJSONObject: secrets, options: [.sortedKeys])
        let secretsPath = try directory.write("secrets.json", data)
        let child = try ChildProcess(executable: TestPaths.python3, arguments: ["-u", script, secretsPath], directory: directory.url)
        let marker = "canary origin listening on "
        let line = try await child.output.waitForLine("\"\(marker)\" from the canary origin", timeout: .seconds(15)) {
            $0.contains(marker)
        }
        guard let port = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no port in \(line.text)") }
        return CanaryOrigin(child: child, port: port, directory: directory)
    }

    /// The requests received so far, decoded.
    var requests: [[String: Any]] {
        output.lines.compactMap { line in
            guard line.text.hasPrefix("{"), let object = LogFile.parse(line.text), object["event"] as? String == "request" else {
                return nil
            }
            return object
        }
    }

    /// Everything the origin printed (request heads and bodies included).
    var received: String { output.text }

    func kill() { child.kill() }

    deinit { kill() }

    static let source = PythonOriginScript.listenerPreamble + #"""
secrets = json.load(open(sys.argv[1]))

log("canary origin listening on 127.0.0.1:%d" % server.getsockname()[1])

class Closed(Exception):
    pass

class Conn:
    def __init__(self, sock):
        self.sock, self.buf = sock, b""
    def fill(self):
        data = self.sock.recv(1 << 20)
        if not data:
            raise Closed()
        self.buf += data
    def until(self, marker):
        while marker not in self.buf:
            self.fill()
        data, _, self.buf = self.buf.partition(marker)
        return data
    def exactly(self, count):
        while len(self.buf) < count:
            self.fill()
        data, self.buf = self.buf[:count], self.buf[count:]
        return data

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

def handle(sock):
    conn = Conn(sock)
    try:
        while True:
            head = conn.until(b"\r\n\r\n").decode("latin-1")
            lines = head.split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            body = b""
            if "chunked" in headers.get("transfer-encoding", "").lower():
                while True:
                    size = int(conn.until(b"\r\n").split(b";")[0], 16)
                    if size == 0:
                        conn.until(b"\r\n")
                        break
                    body += conn.exactly(size)
                    conn.exactly(2)
            elif "content-length" in headers:
                body = conn.exactly(int(headers["content-length"]))
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
    except (Closed, OSError):
        pass
    finally:
        try:
            sock.close()
        except OSError:
            pass

while True:
    sock, _ = server.accept()
    threading.Thread(target=handle, args=(sock,), daemon=True).start()
"""#
}
