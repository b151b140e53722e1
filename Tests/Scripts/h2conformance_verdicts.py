"""The outcomes an h2conformance case can expect, each read from the server's frames with a
bounded wait. The wording follows h2spec's; one difference: a connection error must be a
GOAWAY with the code followed by the close (RFC 9113 §5.4.1), a bare close does not count."""
import os
import time

from h2conformance import CODES, DATA, GOAWAY, HEADERS, PING, RST_STREAM, SETTINGS, frame

CLOSED = object()


def watch(peer, judge):
    """Hands each frame (CLOSED once the server closed) to `judge` until it returns True or
    False; (verdict, note) with a note on a timeout or an early close."""
    deadline = time.monotonic() + peer.timeout
    while True:
        item = peer.read(deadline)
        if item is None:
            if peer.closed:
                verdict = judge(CLOSED)
                return (False, "closed") if verdict is None else (verdict, "closed")
            return False, "timed out after %.1f s" % peer.timeout
        verdict = judge(item)
        if verdict is not None:
            return verdict, None


def codes_of(names):
    return {CODES[name] for name in names}


class ConnectionError:
    """GOAWAY with one of `names`, then the server closes the connection."""

    def __init__(self, *names, last_stream=None):
        self.names, self.codes, self.last_stream = names, codes_of(names), last_stream

    def describe(self):
        last = "" if self.last_stream is None else " (last stream %d)" % self.last_stream
        return "connection error %s%s" % (" or ".join(self.names), last)

    def verdict(self, peer):
        state = {"goaway": False}

        def judge(item):
            if item is CLOSED:
                return state["goaway"]
            if item.type == GOAWAY and not state["goaway"]:
                if item.code not in self.codes:
                    return False
                if self.last_stream is not None and item.last_stream != self.last_stream:
                    return False
                state["goaway"] = True
            return None
        return watch(peer, judge)


class StreamError:
    """RST_STREAM on `stream` with one of `names`, or a connection error with one of them."""

    def __init__(self, stream, *names):
        self.stream, self.names, self.codes = stream, names, codes_of(names)

    def describe(self):
        return "stream error %s on stream %d (or connection error)" % (" or ".join(self.names), self.stream)

    def verdict(self, peer):
        state = {"goaway": False}

        def judge(item):
            if item is CLOSED:
                return state["goaway"]
            if item.type == RST_STREAM and item.stream == self.stream and not state["goaway"]:
                return item.code in self.codes
            if item.type == GOAWAY and not state["goaway"]:
                if item.code not in self.codes:
                    return False
                state["goaway"] = True
            return None
        return watch(peer, judge)


class Response:
    """A complete response on `stream` (`status` if given; `body` bytes if given)."""

    def __init__(self, stream=1, status=None, body=None):
        self.stream, self.status, self.body = stream, status, body

    def describe(self):
        status = "" if self.status is None else " %s" % self.status
        body = "" if self.body is None else " with %d body bytes" % self.body
        return "response%s%s on stream %d" % (status, body, self.stream)

    def verdict(self, peer):
        state = {"status": None, "body": 0}

        def judge(item):
            if item is CLOSED:
                return False
            if item.type == GOAWAY and item.code != 0:
                return False
            if item.stream != self.stream:
                return None
            if item.type == RST_STREAM:
                return False
            if item.type == HEADERS and item.headers and state["status"] is None:
                status = dict(item.headers).get(":status", "")
                if not status.startswith("1"):
                    state["status"] = status
            if item.type == DATA:
                state["body"] += len(item.data)
            if item.type in (DATA, HEADERS) and item.has("END_STREAM"):
                return (state["status"] is not None and (self.status is None or state["status"] == str(self.status))
                        and (self.body is None or state["body"] == self.body))
            return None
        return watch(peer, judge)


class FirstData:
    """The first DATA frame on `stream` carries exactly `size` bytes (flow control)."""

    def __init__(self, stream, size):
        self.stream, self.size = stream, size

    def describe(self):
        return "DATA of %d byte(s) on stream %d" % (self.size, self.stream)

    def verdict(self, peer):
        def judge(item):
            if item is CLOSED or item.type == GOAWAY or (item.type == RST_STREAM and item.stream == self.stream):
                return False
            if item.type == DATA and item.stream == self.stream and len(item.data) > 0:
                return len(item.data) == self.size
            return None
        return watch(peer, judge)


class PingAck:
    """A PING with ACK carrying `payload` (and never one carrying `never`)."""

    def __init__(self, payload, never=None):
        self.payload, self.never = payload, never

    def describe(self):
        return "PING with ACK (%s)" % self.payload.hex()

    def verdict(self, peer):
        def judge(item):
            if item is CLOSED or item.type == GOAWAY:
                return False
            if item.type == PING and item.has("ACK"):
                if self.never is not None and bytes(item.opaque) == self.never:
                    return False
                if bytes(item.opaque) == self.payload:
                    return True
            return None
        return watch(peer, judge)


class Alive(PingAck):
    """The connection goes on: a PING sent now is answered, no GOAWAY comes first."""

    def __init__(self):
        super().__init__(os.urandom(8))

    def describe(self):
        return "no error: a PING sent afterwards is answered"

    def verdict(self, peer):
        peer.send(frame(PING, 0, 0, self.payload))
        return super().verdict(peer)


class SettingsAck:
    """A SETTINGS frame with ACK."""

    def describe(self):
        return "SETTINGS with ACK"

    def verdict(self, peer):
        def judge(item):
            if item is CLOSED or item.type == GOAWAY:
                return False
            return True if item.type == SETTINGS and item.has("ACK") else None
        return watch(peer, judge)


class ServerSettingsFirst:
    """The server's first frame is a SETTINGS frame without ACK (its connection preface)."""

    def describe(self):
        return "SETTINGS (no ACK) as the server's first frame"

    def verdict(self, peer):
        return watch(peer, lambda item: False if item is CLOSED else (item.type == SETTINGS and not item.has("ACK")))


class ClosesQuietly:
    """The server closes the connection without a GOAWAY of its own carrying an error code."""

    def describe(self):
        return "the connection closes (no error GOAWAY)"

    def verdict(self, peer):
        return watch(peer, lambda item: True if item is CLOSED else (False if item.type == GOAWAY and item.code != 0 else None))


class HTTP1BadRequest:
    """An HTTP/1.1 400 answer, then the close: what a listener that also speaks HTTP/1 does
    with bytes that are neither the HTTP/2 preface nor an HTTP/1 request."""

    def describe(self):
        return "HTTP/1.1 400, then the connection closes"

    def verdict(self, peer):
        return watch(peer, lambda item: bytes(peer.raw).startswith(b"HTTP/1.1 400 ") if item is CLOSED else None)
