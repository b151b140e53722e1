"""h2conformance cases of section 8 (HTTP message exchange, server push; RFC 7540 numbering as
h2spec has it, RFC 9113 §8.1-§8.4) and of RFC 7541 (HPACK, as `hpack/SECTION`). Registered
into h2conformance_cases.CASES on import."""
import hpack

from h2conformance import PUSH_PROMISE, frame, hpack_int
from h2conformance_cases import case, data
from h2conformance_verdicts import ConnectionError, Response, StreamError

import struct


def malformed(section, name, fields_of):
    """A request whose header block `fields_of(peer)` is malformed: stream error PROTOCOL_ERROR."""
    @case(section, name, StreamError(1, "PROTOCOL_ERROR"))
    def _(p):
        p.send(p.headers(1, fields_of(p)))


# ---------------------------------------------------------------- 8.1 HTTP request/response exchange
@case("8.1", "Sends a GET request", Response(1, 200, body=64))
def _(p):
    p.send(p.headers(1))


@case("8.1", "Sends a HEAD request", Response(1, 200, body=0))
def _(p):
    p.send(p.headers(1, p.request_fields("HEAD")))


@case("8.1", "Sends a POST request with a body", Response(1, 200))
def _(p):
    p.send(p.post(1, 4), data(1, b"test"))


@case("8.1", "Sends a POST request with trailers", Response(1, 200))
def _(p):
    p.send(p.post(1, 4), data(1, b"test", end_stream=False), p.headers(1, [("x-trailer", "done")]))


@case("8.1", "Sends a second HEADERS frame without the END_STREAM flag", StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1), data(1, b"test", end_stream=False), p.headers(1, [("x-trailer", "done")], end_stream=False))


# ---------------------------------------------------------------- 8.1.2 HTTP header fields
malformed("8.1.2", "Sends a HEADERS frame that contains the header field name in uppercase letters",
          lambda p: p.request_fields(extra=[("X-TEST", "ok")]))

# ---------------------------------------------------------------- 8.1.2.1 pseudo-header fields
malformed("8.1.2.1", "Sends a HEADERS frame that contains a unknown pseudo-header field",
          lambda p: p.request_fields(extra=[(":test", "ok")]))
malformed("8.1.2.1", "Sends a HEADERS frame that contains the pseudo-header field defined for response",
          lambda p: p.request_fields(extra=[(":status", "200")]))
malformed("8.1.2.1", "Sends a HEADERS frame that contains a pseudo-header field that appears in a header block after a regular header field",
          lambda p: [(":method", "GET"), (":scheme", p.scheme), ("x-test", "ok"), (":path", "/64"), (":authority", p.authority)])


@case("8.1.2.1", "Sends a HEADERS frame that contains a pseudo-header field as trailers", StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1, 4), data(1, b"test", end_stream=False), p.headers(1, [(":method", "POST")]))


# ---------------------------------------------------------------- 8.1.2.2 connection-specific header fields
malformed("8.1.2.2", "Sends a HEADERS frame that contains the connection-specific header field",
          lambda p: p.request_fields(extra=[("connection", "keep-alive")]))
malformed("8.1.2.2", "Sends a HEADERS frame that contains the TE header field with any value other than \"trailers\"",
          lambda p: p.request_fields(extra=[("te", "trailers, deflate")]))
malformed("8.1.2.2", "Sends a HEADERS frame that contains the Transfer-Encoding header field",
          lambda p: p.request_fields(extra=[("transfer-encoding", "chunked")]))


@case("8.1.2.2", "Sends a HEADERS frame that contains the TE header field with \"trailers\"", Response(1, 200))
def _(p):
    p.send(p.headers(1, p.request_fields(extra=[("te", "trailers")])))


# ---------------------------------------------------------------- 8.1.2.3 request pseudo-header fields
malformed("8.1.2.3", "Sends a HEADERS frame with empty \":path\" pseudo-header field",
          lambda p: [(":method", "GET"), (":scheme", p.scheme), (":path", ""), (":authority", p.authority)])
malformed("8.1.2.3", "Sends a HEADERS frame that omits \":method\" pseudo-header field",
          lambda p: [(":scheme", p.scheme), (":path", "/64"), (":authority", p.authority)])
malformed("8.1.2.3", "Sends a HEADERS frame that omits \":scheme\" pseudo-header field",
          lambda p: [(":method", "GET"), (":path", "/64"), (":authority", p.authority)])
malformed("8.1.2.3", "Sends a HEADERS frame that omits \":path\" pseudo-header field",
          lambda p: [(":method", "GET"), (":scheme", p.scheme), (":authority", p.authority)])
malformed("8.1.2.3", "Sends a HEADERS frame with duplicated \":method\" pseudo-header field",
          lambda p: [(":method", "GET"), (":method", "GET")] + p.request_fields()[1:])
malformed("8.1.2.3", "Sends a HEADERS frame with duplicated \":scheme\" pseudo-header field",
          lambda p: p.request_fields()[:2] + [(":scheme", p.scheme)] + p.request_fields()[2:])
malformed("8.1.2.3", "Sends a HEADERS frame with duplicated \":path\" pseudo-header field",
          lambda p: p.request_fields()[:3] + [(":path", "/64")] + p.request_fields()[3:])


# ---------------------------------------------------------------- 8.1.2.6 malformed requests and responses
@case("8.1.2.6", "Sends a HEADERS frame with the \"content-length\" header field which does not equal the DATA frame payload length",
      StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1, 1), data(1, b"test"))


@case("8.1.2.6", "Sends a HEADERS frame with the \"content-length\" header field which does not equal the sum of the multiple DATA frames payload length",
      StreamError(1, "PROTOCOL_ERROR"))
def _(p):
    p.send(p.post(1, 10), data(1, b"test", end_stream=False), data(1, b"test"))


# ---------------------------------------------------------------- 8.2 server push
@case("8.2", "Sends a PUSH_PROMISE frame", ConnectionError("PROTOCOL_ERROR"))
def _(p):
    block = p.block_of(p.request_fields())
    p.send(p.post(1), frame(PUSH_PROMISE, 0x4, 1, struct.pack(">I", 2) + block))


# ---------------------------------------------------------------- RFC 7541
def with_block(section, name, expect, tail=b"", head=b""):
    """A GET whose header block is the usual literals with `head` before and `tail` after."""
    @case(section, name, expect)
    def _(p):
        p.send(p.headers(1, block=head + p.block_of(p.request_fields()) + tail))


with_block("hpack/2.3.3", "Sends a indexed header field representation with invalid index",
           ConnectionError("COMPRESSION_ERROR"), tail=hpack_int(70, 7, 0x80))
with_block("hpack/2.3.3", "Sends a literal header field representation with invalid index",
           ConnectionError("COMPRESSION_ERROR"), tail=hpack_int(70, 6, 0x40) + b"\x02ok")
with_block("hpack/4.2", "Sends a dynamic table size update larger than the value of SETTINGS_HEADER_TABLE_SIZE",
           ConnectionError("COMPRESSION_ERROR"), head=hpack_int(4097, 5, 0x20))
with_block("hpack/4.2", "Sends a dynamic table size update smaller than the limit, then fields that use the table",
           Response(1, 200), head=hpack_int(100, 5, 0x20))
# A literal field "x-test", its value Huffman coded (H bit set, RFC 7541 §5.2).
with_block("hpack/5.2", "Sends a Huffman-encoded string literal representation with padding longer than 7 bits",
           ConnectionError("COMPRESSION_ERROR"), tail=b"\x00\x06x-test\x82\x1f\xff")
with_block("hpack/5.2", "Sends a Huffman-encoded string literal representation padded by zero",
           ConnectionError("COMPRESSION_ERROR"), tail=b"\x00\x06x-test\x81\x18")
with_block("hpack/5.2", "Sends a Huffman-encoded string literal representation containing the EOS symbol",
           ConnectionError("COMPRESSION_ERROR"), tail=b"\x00\x06x-test\x84\xff\xff\xff\xff")
with_block("hpack/6.1", "Sends a indexed header field representation with index 0",
           ConnectionError("COMPRESSION_ERROR"), tail=b"\x80")
with_block("hpack/6.3", "Sends a dynamic table size update at the end of header block",
           ConnectionError("COMPRESSION_ERROR"), tail=hpack_int(0, 5, 0x20))


@case("hpack/6", "Sends a request encoded with indexing, Huffman coding and never-indexed fields", Response(3, 200))
def _(p):
    # Two requests with the same encoder: the second refers to the table the first filled.
    fields = p.request_fields(extra=[("x-test", "value"), hpack.NeverIndexedHeaderTuple("authorization", "secret")])
    p.send(p.headers(1, block=p.encoder.encode(fields, huffman=True)))
    p.send(p.headers(3, block=p.encoder.encode(fields, huffman=True)))
