"""Shared pieces of the HTTP/2 test tools (h2probe.py, h2origin.py): a frame reader that
sees every frame the peer sends, whatever the h2 state machine makes of it, and the
connection setup (TLS with ALPN h2, or cleartext prior knowledge)."""
import socket
import ssl

import h2.errors
from hyperframe.frame import Frame

FRAME_HEADER = 9


def error_name(code):
    """The RFC 9113 name of an HTTP/2 error code, or the number as text."""
    try:
        return h2.errors.ErrorCodes(code).name
    except ValueError:
        return str(code)


class FrameReader:
    """Splits the peer's bytes into frames with hyperframe alone (no state machine), so a
    RST_STREAM or GOAWAY is seen even after the h2 package refused something."""

    def __init__(self, skip_preface=False):
        self.buffer = bytearray()
        self.preface_left = 24 if skip_preface else 0

    def feed(self, data):
        """Returns the complete frames in the bytes received so far."""
        self.buffer += data
        if self.preface_left:
            taken = min(self.preface_left, len(self.buffer))
            del self.buffer[:taken]
            self.preface_left -= taken
        frames = []
        while len(self.buffer) >= FRAME_HEADER:
            try:
                frame, length = Frame.parse_frame_header(memoryview(self.buffer[:FRAME_HEADER]))
            except Exception:  # a frame type hyperframe cannot even frame: stop reading
                break
            if len(self.buffer) < FRAME_HEADER + length:
                break
            body = bytes(self.buffer[FRAME_HEADER:FRAME_HEADER + length])
            del self.buffer[:FRAME_HEADER + length]
            try:
                frame.parse_body(memoryview(body))
            except Exception:
                pass  # the summary below still has type, stream, flags and length
            frames.append((frame, length))
        return frames


def summary(frame, length):
    """One received frame as a small JSON-ready dict."""
    item = {"type": getattr(frame, "type", None), "name": type(frame).__name__.replace("Frame", "").upper(),
            "stream": frame.stream_id, "flags": sorted(frame.flags), "length": length}
    if item["name"] == "RSTSTREAM":
        item["code"] = frame.error_code
    if item["name"] == "GOAWAY":
        item["code"] = frame.error_code
        item["last_stream_id"] = frame.last_stream_id
    return item


def client_socket(target, timeout):
    """Connects as `target` says: {"host", "port", "tls", "ca", "server_name", "alpn"}.
    Returns (socket, negotiated ALPN or None)."""
    sock = socket.create_connection((target.get("host", "127.0.0.1"), int(target["port"])), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if not target.get("tls"):
        return sock, None
    context = ssl.create_default_context(cafile=target.get("ca"))
    if not target.get("ca"):
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(target.get("alpn", ["h2"]))
    tls = context.wrap_socket(sock, server_hostname=target.get("server_name", "localhost"))
    return tls, tls.selected_alpn_protocol()


def server_context(cert, key):
    """A TLS server context that offers only h2 by ALPN."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    return context
