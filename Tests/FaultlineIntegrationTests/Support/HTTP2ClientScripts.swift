/// Python clients (the `h2` package) for what curl and nghttp cannot do: hold one stream's
/// window closed while others go on.
enum HTTP2ClientScripts {
    /// Opens `/bytes/3000000` and never reopens its window (the connection window stays open),
    /// then fetches `/json` five times on the same connection; then drains the slow stream.
    /// Prints `stalled N`, `fast_ok True|False`, `fast_seconds S`, `slow_total N`, `slow_done B`.
    static let slowStreamBesideFastOnes = #"""
    import socket, sys, time
    import h2.connection, h2.config, h2.events

    port = int(sys.argv[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    conn.increment_flow_control_window(1 << 24)

    def request(path):
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [(":method", "GET"), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", path)],
                          end_stream=True)
        sock.sendall(conn.data_to_send())
        return sid

    slow = request("/bytes/3000000")
    received, done, statuses = {slow: 0}, set(), {}

    def pump(until, limit, ack_slow=False):
        end = time.time() + limit
        while not until() and time.time() < end:
            data = sock.recv(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    statuses[event.stream_id] = dict(event.headers)[b":status"].decode()
                elif isinstance(event, h2.events.DataReceived):
                    received[event.stream_id] = received.get(event.stream_id, 0) + len(event.data)
                    # The connection window always reopens; the slow stream's only when asked.
                    conn.increment_flow_control_window(event.flow_controlled_length)
                    if event.stream_id == slow and ack_slow and event.flow_controlled_length > 0:
                        try:
                            conn.increment_flow_control_window(event.flow_controlled_length, slow)
                        except Exception:
                            pass
                elif isinstance(event, h2.events.StreamEnded):
                    done.add(event.stream_id)
            sock.sendall(conn.data_to_send())

    pump(lambda: received.get(slow, 0) >= 65535, 5)
    print("stalled", received.get(slow, 0))
    start = time.time()
    fast = [request("/json") for _ in range(5)]
    pump(lambda: all(s in done for s in fast), 5)
    print("fast_ok", all(statuses.get(s) == "200" and s in done for s in fast))
    print("fast_seconds", round(time.time() - start, 3))
    conn.increment_flow_control_window(1 << 20, slow)
    sock.sendall(conn.data_to_send())
    pump(lambda: slow in done, 10, ack_slow=True)
    print("slow_total", received.get(slow, 0))
    print("slow_done", slow in done)
    """#

    /// Opens and at once resets 3000 streams (rapid reset, CVE-2023-44487); prints
    /// `goaway CODE LAST` once the server ends the connection (`goaway None None` if it never does).
    static let rapidReset = #"""
    import socket, sys
    import h2.connection, h2.config, h2.events

    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    goaway = None

    def take(data):
        global goaway
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ConnectionTerminated):
                goaway = event

    for _ in range(3000):
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [(":method", "GET"), (":scheme", "http"), (":authority", "127.0.0.1"),
                                (":path", "/delay/1000")], end_stream=True)
        conn.reset_stream(sid)
        try:
            sock.sendall(conn.data_to_send())
            # Read what came back so far, so a GOAWAY is seen as soon as it arrives (a slow
            # client would otherwise keep sending into a connection the proxy is closing).
            sock.setblocking(False)
            try:
                data = sock.recv(65536)
                if data:
                    take(data)
            except BlockingIOError:
                pass
            finally:
                sock.setblocking(True)
                sock.settimeout(5)
        except OSError:
            break
        if goaway is not None:
            break
    # A slow (sanitized, loaded) proxy may take seconds to get through the streams it read.
    sock.settimeout(20)
    try:
        while goaway is None:
            data = sock.recv(65536)
            if not data:
                break
            take(data)
    except Exception:
        pass
    print("goaway", goaway.error_code if goaway else None, goaway.last_stream_id if goaway else None)
    """#

    /// Sends one request for `/delay/2000`, signals the proxy (pid `argv[2]`) with SIGTERM once
    /// the proxy has acknowledged its SETTINGS, and reads until the stream ends. Prints one
    /// `goaway CODE LAST` line per GOAWAY, then `status S`, `ended B`. Signalling from here keeps
    /// a loaded test runner's scheduling out of the timing. Frames are read by hand: the h2
    /// package closes its connection state at the first GOAWAY, graceful or not.
    static let signalDuringStream = #"""
    import os, signal, socket, struct, sys
    import hpack
    import h2.connection, h2.config

    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    conn.send_headers(1, [(":method", "GET"), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", "/delay/2000")],
                      end_stream=True)
    sock.sendall(conn.data_to_send())
    decoder, buffer = hpack.Decoder(), b""
    signalled, status, ended = False, None, False
    while not ended:
        data = sock.recv(65536)
        if not data:
            break
        buffer += data
        while len(buffer) >= 9:
            length = int.from_bytes(buffer[0:3], "big")
            if len(buffer) < 9 + length:
                break
            kind, flags, stream = buffer[3], buffer[4], int.from_bytes(buffer[5:9], "big") & 0x7fffffff
            payload, buffer = buffer[9:9 + length], buffer[9 + length:]
            if kind == 4 and flags & 1 and not signalled:
                os.kill(int(sys.argv[2]), signal.SIGTERM)
                signalled = True
            elif kind == 7:
                last, code = struct.unpack(">II", payload[:8])
                print("goaway", code, last & 0x7fffffff, flush=True)
            elif kind == 1 and stream == 1:
                status = dict(decoder.decode(payload)).get(":status")
            if stream == 1 and kind in (0, 1) and flags & 1:
                ended = True
    print("status", status)
    print("ended", ended)
    """#

    /// POSTs `hello world` to `/echo` in two DATA frames without content-length, then the
    /// trailer `x-checksum: 1`; prints the response body (the scripted origin's JSON echo).
    static let uploadWithTrailers = #"""
    import socket, sys
    import h2.connection, h2.config, h2.events

    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    conn.send_headers(1, [(":method", "POST"), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", "/echo"),
                          ("te", "trailers")])
    conn.send_data(1, b"hello ")
    conn.send_data(1, b"world")
    conn.send_headers(1, [("x-checksum", "1")], end_stream=True)
    sock.sendall(conn.data_to_send())
    body, done = b"", False
    while not done:
        data = sock.recv(65536)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.DataReceived):
                body += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, 1)
            elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                done = True
        sock.sendall(conn.data_to_send())
    print(body.decode())
    """#
}
