"""The h2conformance cases: one or more per h2spec section (RFC 9113 §3.4-§8, in the RFC 7540
numbering h2spec uses, and RFC 7541 as `hpack/…`), each with what it sends and the outcome
it expects. Case ids are SECTION/N, N counting from 1 within the section.

The requests go to the origin behind the server: GET /64 (64 bytes), POST /echo, and
GET /bytes/100 where flow control is watched."""
from h2conformance import (ACK, CONTINUATION, DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, PADDED, PING,
                           PRIORITY, RST_STREAM, SETTINGS, WINDOW_UPDATE, frame, literal, settings)
from h2conformance_verdicts import (Alive, ClosesQuietly, ConnectionError, FirstData, HTTP1BadRequest, PingAck, Response,
                                    ServerSettingsFirst, SettingsAck, StreamError)

import struct

HEADER_TABLE_SIZE, ENABLE_PUSH, MAX_CONCURRENT_STREAMS, INITIAL_WINDOW_SIZE, MAX_FRAME_SIZE = 1, 2, 3, 4, 5
MAX_WINDOW = (1 << 31) - 1


class Case:
    def __init__(self, section, number, name, expect, run, handshake):
        self.section, self.name, self.expect, self.run, self.handshake = section, name, expect, run, handshake
        self.id = "%s/%d" % (section, number)


CASES = []


def case(section, name, expect, handshake=()):
    """Registers the decorated function as a case; `handshake` are the SETTINGS values the
    client sends in its preface, None for no handshake at all."""
    def register(run):
        number = 1 + sum(1 for c in CASES if c.section == section)
        CASES.append(Case(section, number, name, expect, run, handshake))
        return run
    return register


def window_update(stream, increment):
    return frame(WINDOW_UPDATE, 0, stream, struct.pack(">I", increment))


def rst(stream, code):
    return frame(RST_STREAM, 0, stream, struct.pack(">I", code))


def data(stream, payload, end_stream=True):
    return frame(DATA, END_STREAM if end_stream else 0, stream, payload)


def ping(payload=b"h2spec!!", flags=0, stream=0):
    return frame(PING, flags, stream, payload)


def priority(stream, dependency, weight=16):
    return frame(PRIORITY, 0, stream, struct.pack(">IB", dependency, weight))


def split_block(p, fields=None):
    """A request's header block in two halves (for HEADERS + CONTINUATION)."""
    block = p.block_of(fields if fields is not None else p.request_fields())
    return block[:len(block) // 2], block[len(block) // 2:]


# ---------------------------------------------------------------- 3.5 connection preface
@case("3.5", "Sends client connection preface", ServerSettingsFirst(), handshake=None)
def _(p):
    p.send(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", frame(SETTINGS, 0, 0))


@case("3.5", "Sends invalid connection preface", ConnectionError("PROTOCOL_ERROR"), handshake=None)
def _(p):
    # Over TLS, ALPN h2 made this an HTTP/2 connection. An h2c listener also speaks HTTP/1,
    # but this first line is no HTTP/1 request line (no ` HTTP/1.x` at its end): it is taken
    # as an invalid HTTP/2 preface (docs/config.md, `h2c`).
    p.send(b"INVALID CONNECTION PREFACE\r\n\r\n")


@case("3.5", "Sends the preface's first line followed by something else", ConnectionError("PROTOCOL_ERROR"), handshake=None)
def _(p):
    p.send(b"PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n", frame(SETTINGS, 0, 0))


# ---------------------------------------------------------------- 4.1 frame format
@case("4.1", "Sends a frame with unknown type", Alive())
def _(p):
    p.send(frame(0x16, 0, 0, b"\x00" * 8))


@case("4.1", "Sends a frame with undefined flag", PingAck(b"undefflg"))
def _(p):
    p.send(ping(b"undefflg", flags=0x16))


@case("4.1", "Sends a frame with reserved field bit", Response(1))
def _(p):
    p.send(p.headers(0x80000001))


# ---------------------------------------------------------------- 4.2 frame size
@case("4.2", "Sends a DATA frame with 2^14 octets in length", Response(1, 200))
def _(p):
    p.send(p.post(1, 16384), data(1, b"x" * 16384))


@case("4.2", "Sends a large size DATA frame that exceeds the SETTINGS_MAX_FRAME_SIZE", StreamError(1, "FRAME_SIZE_ERROR"))
def _(p):
    p.send(p.post(1, 16385), data(1, b"x" * 16385))


@case("4.2", "Sends a large size HEADERS frame that exceeds the SETTINGS_MAX_FRAME_SIZE", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    extra = [("x-dummy%d" % i, "x" * 1000) for i in range(17)]
    p.send(p.headers(1, p.request_fields(extra=extra)))


# ---------------------------------------------------------------- 4.3 header compression
@case("4.3", "Sends invalid header block fragment", ConnectionError("COMPRESSION_ERROR"))
def _(p):
    # A literal whose name claims 10 bytes and the block ends after 3.
    p.send(p.headers(1, block=p.block_of(p.request_fields()) + b"\x40\x0aabc"))


@case("4.3", "Sends a PRIORITY frame while sending the header blocks", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), priority(1, 0), frame(CONTINUATION, END_HEADERS, 1, rest))


@case("4.3", "Sends a HEADERS frame to another stream while sending the header blocks", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), p.headers(3), frame(CONTINUATION, END_HEADERS, 1, rest))


# ---------------------------------------------------------------- 5.1 stream states
@case("5.1", "idle: Sends a DATA frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(data(1, b"test"))


@case("5.1", "idle: Sends a RST_STREAM frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(rst(1, 8))


@case("5.1", "idle: Sends a WINDOW_UPDATE frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(window_update(1, 100))


@case("5.1", "idle: Sends a CONTINUATION frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(frame(CONTINUATION, END_HEADERS, 1, p.block_of(p.request_fields())))


@case("5.1", "idle: Sends a PRIORITY frame", Alive())
def _(p):
    p.send(priority(1, 0))


@case("5.1", "half closed (remote): Sends a DATA frame", StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.headers(1), data(1, b"test"))


@case("5.1", "half closed (remote): Sends a HEADERS frame", StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.headers(1), p.headers(1))


@case("5.1", "half closed (remote): Sends a CONTINUATION frame", StreamError(1, "STREAM_CLOSED", "PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(1), frame(CONTINUATION, END_HEADERS, 1, literal("x-test", "ok")))


@case("5.1", "half closed (remote): Sends a WINDOW_UPDATE frame", Alive())
def _(p):
    p.send(p.headers(1), window_update(1, 1))


@case("5.1", "half closed (remote): Sends a PRIORITY frame", Alive())
def _(p):
    p.send(p.headers(1), priority(1, 0))


@case("5.1", "half closed (remote): Sends a RST_STREAM frame", Alive())
def _(p):
    p.send(p.headers(1), rst(1, 8))


@case("5.1", "closed: Sends a DATA frame after sending RST_STREAM frame", StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.post(1), rst(1, 8), data(1, b"test"))


@case("5.1", "closed: Sends a HEADERS frame after sending RST_STREAM frame", StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.post(1), rst(1, 8), p.headers(1))


@case("5.1", "closed: Sends a CONTINUATION frame after sending RST_STREAM frame", StreamError(1, "STREAM_CLOSED", "PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1), rst(1, 8), frame(CONTINUATION, END_HEADERS, 1, literal("x-test", "ok")))


@case("5.1", "closed: Sends a DATA frame", StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.headers(1))
    p.wait_end(1)
    p.send(data(1, b"test"))


@case("5.1", "closed: Sends a HEADERS frame", StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.headers(1))
    p.wait_end(1)
    p.send(p.headers(1))


@case("5.1", "closed: Sends a CONTINUATION frame", StreamError(1, "STREAM_CLOSED", "PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(1))
    p.wait_end(1)
    p.send(frame(CONTINUATION, END_HEADERS, 1, literal("x-test", "ok")))


@case("5.1", "closed: Sends a PRIORITY frame", Alive())
def _(p):
    p.send(p.headers(1))
    p.wait_end(1)
    p.send(priority(1, 0))


# ---------------------------------------------------------------- 5.1.1 stream identifiers
@case("5.1.1", "Sends even-numbered stream identifier", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(2))


@case("5.1.1", "Sends stream identifier that is numerically smaller than previous", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(5), p.headers(3))


@case("5.1.1", "Sends a skipped stream identifier after the higher stream's response ended",
      ConnectionError("PROTOCOL_ERROR", last_stream=5))
def _(p):
    p.send(p.headers(5))
    p.wait_end(5)
    p.send(p.headers(1))


@case("5.1.1", "Sends trailers on a lower stream that is still open (no error)", Response(1, 200))
def _(p):
    p.send(p.post(1), p.headers(3), data(1, b"test", end_stream=False), p.headers(1, [("x-trailer", "1")]))


# ---------------------------------------------------------------- 5.1.2 stream concurrency
@case("5.1.2", "Sends HEADERS frames that causes their advertised concurrent stream limit to be exceeded",
      lambda p: StreamError(2 * p.server_settings.get(MAX_CONCURRENT_STREAMS, 100) + 1, "PROTOCOL_ERROR", "REFUSED_STREAM"))
def _(p):
    limit = p.server_settings.get(MAX_CONCURRENT_STREAMS, 100)
    p.send(*[p.post(2 * i + 1) for i in range(limit + 1)])


# ---------------------------------------------------------------- 5.3.1 stream dependencies
@case("5.3.1", "Sends HEADERS frame that depends on itself", StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(1, priority=(1, 15)))


@case("5.3.1", "Sends PRIORITY frame that depend on itself", StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(priority(1, 1))


# ---------------------------------------------------------------- 5.4.1 connection error handling
@case("5.4.1", "Sends an invalid PING frame for connection close", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    p.send(frame(PING, 0, 0, b"\x00" * 6))


@case("5.4.1", "Sends an invalid PING frame to receive GOAWAY frame naming the last stream processed",
      ConnectionError("FRAME_SIZE_ERROR", last_stream=1))
def _(p):
    p.send(p.headers(1))
    p.wait_end(1)
    p.send(frame(PING, 0, 0, b"\x00" * 6))


# ---------------------------------------------------------------- 5.5 extending HTTP/2
@case("5.5", "Sends an unknown extension frame", Alive())
def _(p):
    p.send(frame(0xff, 0, 0, b"\x00" * 8))


@case("5.5", "Sends an unknown extension frame in the middle of a header block", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), frame(0xff, 0, 1, b"\x00" * 8),
           frame(CONTINUATION, END_HEADERS, 1, rest))


# ---------------------------------------------------------------- 6.1 DATA
@case("6.1", "Sends a DATA frame with 0x0 stream identifier", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1), data(0, b"test"))


@case("6.1", "Sends a DATA frame on the stream that is not in \"open\" or \"half-closed (local)\" state",
      StreamError(1, "STREAM_CLOSED"))
def _(p):
    p.send(p.headers(1), data(1, b"test"))


@case("6.1", "Sends a DATA frame with invalid pad length", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1, 4), frame(DATA, END_STREAM | PADDED, 1, b"\x06test"))


@case("6.1", "Sends a DATA frame with padding", Response(1, 200))
def _(p):
    p.send(p.post(1, 4), frame(DATA, END_STREAM | PADDED, 1, b"\x03test\x00\x00\x00"))


# ---------------------------------------------------------------- 6.2 HEADERS
@case("6.2", "Sends a HEADERS frame without the END_HEADERS flag, and a PRIORITY frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), priority(1, 0))


@case("6.2", "Sends a HEADERS frame to another stream while sending a HEADERS frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), p.headers(3))


@case("6.2", "Sends a HEADERS frame with 0x0 stream identifier", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(0))


@case("6.2", "Sends a HEADERS frame with invalid pad length", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    block = p.block_of(p.request_fields())
    p.send(frame(HEADERS, END_STREAM | END_HEADERS | PADDED, 1, bytes([len(block) + 1]) + block))


@case("6.2", "Sends a HEADERS frame with padding", Response(1, 200))
def _(p):
    p.send(p.headers(1, pad=8))


@case("6.2", "Sends a HEADERS frame with priority", Response(1, 200))
def _(p):
    p.send(p.headers(1, priority=(0, 255)))


# ---------------------------------------------------------------- 6.3 PRIORITY
@case("6.3", "Sends a PRIORITY frame with 0x0 stream identifier", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(priority(0, 1))


@case("6.3", "Sends a PRIORITY frame with a length other than 5 octets", StreamError(1, "FRAME_SIZE_ERROR"))
def _(p):
    p.send(p.post(1), frame(PRIORITY, 0, 1, b"\x00\x00\x00\x00"))


@case("6.3", "Sends a PRIORITY frame for an idle stream, then a HEADERS frame on it", Response(3, 200))
def _(p):
    p.send(priority(3, 0, 200), p.headers(3))


# ---------------------------------------------------------------- 6.4 RST_STREAM
@case("6.4", "Sends a RST_STREAM frame with 0x0 stream identifier", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(rst(0, 8))


@case("6.4", "Sends a RST_STREAM frame on a idle stream", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(rst(1, 8))


@case("6.4", "Sends a RST_STREAM frame with a length other than 4 octets", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    p.send(p.post(1), frame(RST_STREAM, 0, 1, b"\x00\x00\x08"))


# ---------------------------------------------------------------- 6.5 SETTINGS
@case("6.5", "Sends a SETTINGS frame with ACK flag and payload", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    p.send(frame(SETTINGS, ACK, 0, settings((INITIAL_WINDOW_SIZE, 65535))))


@case("6.5", "Sends a SETTINGS frame with a stream identifier other than 0x0", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 1, settings((INITIAL_WINDOW_SIZE, 65535))))


@case("6.5", "Sends a SETTINGS frame with a length other than a multiple of 6 octets", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 0, b"\x00\x03\x00"))


# ---------------------------------------------------------------- 6.5.2 defined SETTINGS parameters
@case("6.5.2", "SETTINGS_ENABLE_PUSH (0x2): Sends the value other than 0 or 1", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((ENABLE_PUSH, 2))))


@case("6.5.2", "SETTINGS_INITIAL_WINDOW_SIZE (0x4): Sends the value above the maximum flow control window size",
      ConnectionError("FLOW_CONTROL_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 1 << 31))))


@case("6.5.2", "SETTINGS_MAX_FRAME_SIZE (0x5): Sends the value below the initial value", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((MAX_FRAME_SIZE, 16383))))


@case("6.5.2", "SETTINGS_MAX_FRAME_SIZE (0x5): Sends the value above the maximum allowed frame size",
      ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((MAX_FRAME_SIZE, 1 << 24))))


@case("6.5.2", "Sends a SETTINGS frame with unknown identifier", SettingsAck())
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((0xff, 1))))


# ---------------------------------------------------------------- 6.5.3 settings synchronization
@case("6.5.3", "Sends multiple values of SETTINGS_INITIAL_WINDOW_SIZE", FirstData(1, 1))
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 100), (INITIAL_WINDOW_SIZE, 1))),
           p.headers(1, p.request_fields(path="/bytes/100")))


@case("6.5.3", "Sends a SETTINGS frame without ACK flag", SettingsAck())
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 65535))))


# ---------------------------------------------------------------- 6.7 PING
@case("6.7", "Sends a PING frame", PingAck(b"h2spec!!"))
def _(p):
    p.send(ping(b"h2spec!!"))


@case("6.7", "Sends a PING frame with ACK", PingAck(b"secondpg", never=b"firstpng"))
def _(p):
    p.send(ping(b"firstpng", flags=ACK), ping(b"secondpg"))


@case("6.7", "Sends a PING frame with a stream identifier field value other than 0x0", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(ping(stream=1))


@case("6.7", "Sends a PING frame with a length field value other than 8", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    p.send(frame(PING, 0, 0, b"\x00" * 6))


# ---------------------------------------------------------------- 6.8 GOAWAY
@case("6.8", "Sends a GOAWAY frame with a stream identifier other than 0x0", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(frame(GOAWAY, 0, 1, struct.pack(">II", 0, 0)))


# ---------------------------------------------------------------- 6.9 WINDOW_UPDATE
@case("6.9", "Sends a WINDOW_UPDATE frame with a flow control window increment of 0", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(window_update(0, 0))


@case("6.9", "Sends a WINDOW_UPDATE frame with a flow control window increment of 0 on a stream", StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1), window_update(1, 0))


@case("6.9", "Sends a WINDOW_UPDATE frame with a length other than 4 octets", ConnectionError("FRAME_SIZE_ERROR"))
def _(p):
    p.send(frame(WINDOW_UPDATE, 0, 0, b"\x00\x00\x01"))


# ---------------------------------------------------------------- 6.9.1 the flow-control window
@case("6.9.1", "Sends SETTINGS frame to set the initial window size to 1 and sends HEADERS frame", FirstData(1, 1),
      handshake=[(INITIAL_WINDOW_SIZE, 1)])
def _(p):
    p.send(p.headers(1, p.request_fields(path="/bytes/100")))


@case("6.9.1", "Sends multiple WINDOW_UPDATE frames increasing the flow control window to above 2^31-1",
      ConnectionError("FLOW_CONTROL_ERROR"))
def _(p):
    p.send(window_update(0, MAX_WINDOW), window_update(0, MAX_WINDOW))


@case("6.9.1", "Sends multiple WINDOW_UPDATE frames increasing the flow control window to above 2^31-1 on a stream",
      StreamError(1, "FLOW_CONTROL_ERROR"))
def _(p):
    p.send(p.post(1), window_update(1, MAX_WINDOW), window_update(1, MAX_WINDOW))


# ---------------------------------------------------------------- 6.9.2 initial flow-control window size
@case("6.9.2", "Changes SETTINGS_INITIAL_WINDOW_SIZE after sending HEADERS frame", FirstData(1, 1),
      handshake=[(INITIAL_WINDOW_SIZE, 0)])
def _(p):
    p.send(p.headers(1, p.request_fields(path="/bytes/100")))
    p.wait(lambda f: f.type == HEADERS and f.stream == 1, "the response HEADERS")
    p.send(frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 1))))


@case("6.9.2", "Sends a SETTINGS frame for window size to be negative", FirstData(1, 1),
      handshake=[(INITIAL_WINDOW_SIZE, 3)])
def _(p):
    p.send(p.headers(1, p.request_fields(path="/bytes/100")))
    p.wait_data(1, 3)
    # The window is now 0; 2 makes it -1, and an increment of 2 leaves room for 1 byte.
    p.send(frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 2))), window_update(1, 2))


@case("6.9.2", "Sends a SETTINGS_INITIAL_WINDOW_SIZE settings with an exceeded maximum window size value",
      ConnectionError("FLOW_CONTROL_ERROR"))
def _(p):
    p.send(frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 1 << 31))))


@case("6.9.2", "Raises SETTINGS_INITIAL_WINDOW_SIZE so that an open stream's window exceeds 2^31-1",
      StreamError(1, "FLOW_CONTROL_ERROR"))
def _(p):
    # RFC 9113 §6.9.2 asks for a connection error; nghttp2 resets the stream alone (a
    # stream error of the same code), which this case accepts as h2spec's stream errors do.
    p.send(p.post(1), window_update(1, MAX_WINDOW - 65535), frame(SETTINGS, 0, 0, settings((INITIAL_WINDOW_SIZE, 65536))))


# ---------------------------------------------------------------- 6.10 CONTINUATION
@case("6.10", "Sends multiple CONTINUATION frames preceded by a HEADERS frame", Response(1, 200))
def _(p):
    block = p.block_of(p.request_fields(extra=[("x-dummy%d" % i, "x" * 100) for i in range(5)]))
    parts = [block[i:i + 120] for i in range(0, len(block), 120)]
    frames = [p.headers(1, block=parts[0], end_headers=False)]
    frames += [frame(CONTINUATION, END_HEADERS if i == len(parts) - 1 else 0, 1, part) for i, part in enumerate(parts) if i > 0]
    p.send(*frames)


@case("6.10", "Sends a CONTINUATION frame followed by any frame other than CONTINUATION", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False, end_stream=False), frame(CONTINUATION, 0, 1, rest), data(1, b"test"))


@case("6.10", "Sends a CONTINUATION frame with 0x0 stream identifier", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), frame(CONTINUATION, END_HEADERS, 0, rest))


@case("6.10", "Sends a CONTINUATION frame preceded by a HEADERS frame with END_HEADERS flag", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.headers(1), frame(CONTINUATION, END_HEADERS, 1, literal("x-test", "ok")))


@case("6.10", "Sends a CONTINUATION frame preceded by a CONTINUATION frame with END_HEADERS flag", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    first, rest = split_block(p)
    p.send(p.headers(1, block=first, end_headers=False), frame(CONTINUATION, END_HEADERS, 1, rest),
           frame(CONTINUATION, END_HEADERS, 1, literal("x-test", "ok")))


@case("6.10", "Sends a CONTINUATION frame preceded by a DATA frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1), data(1, b"test", end_stream=False), frame(CONTINUATION, END_HEADERS, 1, literal("x-test", "ok")))


# ---------------------------------------------------------------- 7 error codes
@case("7", "Sends a GOAWAY frame with unknown error code", ClosesQuietly())
def _(p):
    # As after any GOAWAY: with no stream open the server has nothing left and closes.
    p.send(frame(GOAWAY, 0, 0, struct.pack(">II", 0, 0xff)))


@case("7", "Sends a RST_STREAM frame with unknown error code", Alive())
def _(p):
    p.send(p.post(1), rst(1, 0xff))


@case("7", "Sends a GOAWAY frame with unknown error code while a stream is open", Response(1, 200))
def _(p):
    # No special behaviour: the open stream still completes.
    p.send(p.post(1, 4), frame(GOAWAY, 0, 0, struct.pack(">II", 0, 0xff)), data(1, b"test"))


import h2conformance_cases_messages  # noqa: E402,F401 (registers section 8 and RFC 7541)
