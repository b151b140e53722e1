/// What every Python origin of the integration tests starts with, so each script is only its
/// own behaviour. A script is `PythonOriginPrelude.source + <its handler>` and ends with
/// `serve(handle)`.
///
/// `source` defines:
/// - `log(message)`: one line to stdout, thread-safe and flushed (tests wait on these lines)
/// - `server`: a socket listening on an ephemeral loopback port
/// - `Closed`: raised by a read once the peer has closed
/// - `Conn(sock, n, recv_size=65536)`: buffered reads from one connection: `until(marker)`,
///   `line()` (without its CRLF), `exactly(count)`, `wait_close()`; a subclass sees every byte
///   read in `received(data)`
/// - `fields(conn)`: field lines up to the empty line, as `[name, value]` (the name as sent,
///   the value stripped)
/// - `read_body(conn, lower)`: the body a request head announces (`lower`: its fields by
///   lowercased name), chunked or by Content-Length, and the trailers of a chunked one
/// - `close_quietly(sock)`
/// - `serve(handle, name="origin", quiet=False, errors=(OSError,))`: prints
///   `NAME listening on 127.0.0.1:PORT`, then runs `handle(sock, n)` on a thread per accepted
///   connection (`n` counts from 1). Unless `quiet` it logs `conn N open` first and, when the
///   handler ends on `Closed` or one of `errors`, `conn N closed-by-peer` or `conn N error …`;
///   the socket is closed in every case.
enum PythonOriginPrelude {
    /// The imports and `log` alone, for a script that listens by other means (`http.server`).
    static let log = #"""
import json, socket, sys, threading, time

lock = threading.Lock()

def log(message):
    with lock:
        sys.stdout.write(message + "\n")
        sys.stdout.flush()

"""#

    /// `log`, the listening socket, `Closed`, `Conn`, `fields`, `read_body`, `close_quietly` and `serve`.
    static let source = log + #"""
server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(128)

class Closed(Exception):
    pass

class Conn:
    def __init__(self, sock, n, recv_size=65536):
        self.sock, self.n, self.buf, self.recv_size = sock, n, b"", recv_size
    def received(self, data):
        pass
    def fill(self):
        data = self.sock.recv(self.recv_size)
        if not data:
            raise Closed()
        self.received(data)
        self.buf += data
    def until(self, marker):
        while marker not in self.buf:
            self.fill()
        data, _, self.buf = self.buf.partition(marker)
        return data
    def line(self):
        return self.until(b"\r\n")
    def exactly(self, count):
        while len(self.buf) < count:
            self.fill()
        data, self.buf = self.buf[:count], self.buf[count:]
        return data
    def wait_close(self):
        while True:
            self.fill()
            self.buf = b""

def fields(conn):
    result = []
    while True:
        line = conn.line()
        if not line:
            return result
        name, _, value = line.decode("latin-1").partition(":")
        result.append([name, value.strip()])

def read_body(conn, lower):
    if "chunked" in lower.get("transfer-encoding", "").lower():
        body = b""
        while True:
            size = int(conn.line().split(b";")[0], 16)
            if size == 0:
                return body, fields(conn)
            body += conn.exactly(size)
            conn.line()
    if "content-length" in lower:
        return conn.exactly(int(lower["content-length"])), []
    return b"", []

def close_quietly(sock):
    try:
        sock.close()
    except OSError:
        pass

def serve(handle, name="origin", quiet=False, errors=(OSError,)):
    def run(sock, n):
        if not quiet:
            log("conn %d open" % n)
        try:
            handle(sock, n)
        except Closed:
            if not quiet:
                log("conn %d closed-by-peer" % n)
        except errors as error:
            if not quiet:
                log("conn %d error %s" % (n, error))
        finally:
            close_quietly(sock)
    log("%s listening on 127.0.0.1:%d" % (name, server.getsockname()[1]))
    count = 0
    while True:
        sock, _ = server.accept()
        count += 1
        threading.Thread(target=run, args=(sock, count), daemon=True).start()

"""#
}
