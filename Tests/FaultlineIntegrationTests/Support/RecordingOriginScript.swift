import FaultlineTestSupport

/// The recording origin of the differential framing test, in Python. It appends every byte it
/// reads on connection N to `RECORD_DIR/conn-N.raw` before acting on it, so the test can
/// re-parse exactly what the proxy sent, and logs `conn N open`, `conn N closed-by-peer`,
/// `conn N closed-by-origin` and `conn N bad REASON` to stdout.
///
/// It parses requests strictly itself (a lenient origin would be the one that gets smuggled
/// into): anything that is not clean HTTP/1.1 framing gets a 400 and the connection closed.
/// Every answer is tagged with the request's own identity: `X-Nonce` (copied from the
/// request), `X-Body-SHA256` and `X-Body-Length` (of the body it decoded), and a body made
/// of `NONCE|` repeated, so a client can tell its own response from anybody else's.
///
/// The request header `X-Respond: MODE SIZE` picks the answer:
/// - `cl N`: 200 with Content-Length N (HEAD: the header, no body)
/// - `chunked N`: 200 chunked in uneven chunks with extensions, trailer `X-Trailer-Nonce`
/// - `eof N`: 200 without length, the end marked by closing the connection
/// - `then-close N`: as `cl`, then the connection is closed without announcing it
/// - `mid N`: Content-Length N, half of it, then close (upstream dies mid-response)
/// - `midchunk N`: chunked, one chunk of half, then close
/// - `drop`: close without answering
/// - `204`: 204 No Content
/// - `conn-cl N`, `conn-te N`: hostile: `Connection: content-length` (or
///   `transfer-encoding`) naming the response's own framing header
/// - `extra N`: as `cl`, then at once a second, unsolicited response (nonce `unsolicited`)
enum RecordingOriginScript {
    static let source = PythonOriginPrelude.source + #"""
import hashlib, os, re

RECORD_DIR = sys.argv[1]

TOKEN = re.compile(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
TARGET = re.compile(rb"^[\x21-\x7e]+$")
HEX = re.compile(rb"^[0-9A-Fa-f]{1,8}$")
EXT = re.compile(rb"^(;[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+([ \t]*=[ \t]*([!#$%&'*+\-.^_`|~0-9A-Za-z]+|\"[^\"\\\r\n]*\"))?[ \t]*)*$")
VALUE = re.compile(rb"^[\t\x20-\x7e\x80-\xff]*$")

class Bad(Exception):
    pass

class RecordingConn(Conn):
    def __init__(self, sock, n):
        super().__init__(sock, n)
        self.record = open(os.path.join(RECORD_DIR, "conn-%d.raw" % n), "ab", buffering=0)
    def received(self, data):
        self.record.write(data)
    def line(self, limit=16384):
        while b"\r\n" not in self.buf:
            if len(self.buf) > limit:
                raise Bad("line too long")
            self.fill()
        line = super().line()
        if b"\n" in line or b"\r" in line:
            raise Bad("bare CR or LF")
        return line

def strict_fields(conn):
    out = []
    while True:
        line = conn.line()
        if not line:
            return out
        name, colon, value = line.partition(b":")
        if not colon or not TOKEN.match(name):
            raise Bad("bad field line %r" % line[:80])
        value = value.strip(b" \t")
        if not VALUE.match(value):
            raise Bad("bad field value")
        out.append((name.decode("latin-1").lower(), value.decode("latin-1")))

def read_request(conn):
    line = conn.line()
    parts = line.split(b" ")
    if len(parts) != 3 or not TOKEN.match(parts[0]) or not TARGET.match(parts[1]) or parts[2] != b"HTTP/1.1":
        raise Bad("bad request line %r" % line[:80])
    headers = strict_fields(conn)
    te = [v for k, v in headers if k == "transfer-encoding"]
    cl = [v for k, v in headers if k == "content-length"]
    body = b""
    if te:
        if cl or len(te) != 1 or te[0].lower() != "chunked":
            raise Bad("bad framing")
        while True:
            size_line = conn.line()
            size, _, ext = size_line.partition(b";")
            if not HEX.match(size) or (ext and not EXT.match(b";" + ext)):
                raise Bad("bad chunk size line %r" % size_line[:80])
            size = int(size, 16)
            if size == 0:
                strict_fields(conn)
                break
            body += conn.exactly(size)
            if conn.exactly(2) != b"\r\n":
                raise Bad("chunk data not followed by CRLF")
    elif cl:
        if len(cl) != 1 or not re.match(r"^[0-9]{1,12}$", cl[0]):
            raise Bad("bad content-length")
        body = conn.exactly(int(cl[0]))
    return parts[0].decode(), headers, body

def pattern(nonce, size):
    unit = (nonce + "|").encode()
    return (unit * (size // len(unit) + 1))[:size]

def chunks(data, nonce):
    # Uneven chunk sizes derived from the nonce, so each response is cut differently.
    seed = int(hashlib.sha256(nonce.encode()).hexdigest()[:8], 16)
    out, i, k = b"", 0, 0
    while i < len(data):
        step = 1 + (seed >> (k % 24)) % 977
        piece = data[i:i + step]
        ext = b";n=%d" % k if k % 3 == 1 else (b';q="x y"' if k % 5 == 4 else b"")
        out += b"%x%s\r\n%s\r\n" % (len(piece), ext, piece)
        i += step
        k += 1
    return out

def respond(conn, n, method, headers, body):
    sock = conn.sock
    lookup = dict(headers)
    nonce = lookup.get("x-nonce", "none")
    words = lookup.get("x-respond", "cl 64").split()
    mode = words[0] if words else "cl"
    size = int(words[1]) if len(words) > 1 and words[1].isdigit() else 64
    payload = pattern(nonce, size)
    tag = b"X-Nonce: %s\r\nX-Body-SHA256: %s\r\nX-Body-Length: %d\r\nContent-Type: application/octet-stream\r\n" % (
        nonce.encode(), hashlib.sha256(body).hexdigest().encode(), len(body))
    head_only = method == "HEAD"
    if mode == "drop":
        return False
    if mode == "204":
        sock.sendall(b"HTTP/1.1 204 No Content\r\n" + tag + b"\r\n")
        return True
    if mode in ("chunked", "midchunk"):
        start = b"HTTP/1.1 200 OK\r\n" + tag + b"Transfer-Encoding: chunked\r\nTrailer: X-Trailer-Nonce\r\n\r\n"
        if head_only:
            sock.sendall(start)
            return True
        if mode == "midchunk":
            half = payload[:size // 2]
            sock.sendall(start + b"%x\r\n%s\r\n" % (len(half), half))
            time.sleep(0.05)
            return False
        sock.sendall(start + chunks(payload, nonce) + b"0\r\nX-Trailer-Nonce: %s\r\n\r\n" % nonce.encode())
        return True
    if mode == "eof":
        sock.sendall(b"HTTP/1.1 200 OK\r\n" + tag + b"\r\n" + (b"" if head_only else payload))
        return False
    if mode == "conn-cl":
        sock.sendall(b"HTTP/1.1 200 OK\r\n" + tag + b"Connection: content-length\r\nContent-Length: %d\r\n\r\n" % size + payload)
        return True
    if mode == "conn-te":
        sock.sendall(b"HTTP/1.1 200 OK\r\n" + tag + b"Connection: transfer-encoding\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + chunks(payload, nonce) + b"0\r\n\r\n")
        return True
    if mode == "extra":
        sock.sendall(b"HTTP/1.1 200 OK\r\n" + tag + b"Content-Length: %d\r\n\r\n" % size + payload)
        sock.sendall(b"HTTP/1.1 200 OK\r\nX-Nonce: unsolicited\r\nContent-Length: 11\r\n\r\nunsolicited")
        return True
    if mode == "mid":
        sock.sendall(b"HTTP/1.1 200 OK\r\n" + tag + b"Content-Length: %d\r\n\r\n" % size + payload[:size // 2])
        time.sleep(0.05)
        return False
    sock.sendall(b"HTTP/1.1 200 OK\r\n" + tag + b"Content-Length: %d\r\n\r\n" % size + (b"" if head_only else payload))
    return mode != "then-close"

def handle(sock, n):
    conn = RecordingConn(sock, n)
    try:
        while True:
            method, headers, body = read_request(conn)
            if not respond(conn, n, method, headers, body):
                log("conn %d closed-by-origin" % n)
                return
    except Bad as error:
        log("conn %d bad %s" % (n, error))
        try:
            sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\nConnection: close\r\n\r\nbad request")
        except OSError:
            pass
    finally:
        conn.record.close()

serve(handle)
"""#
}
