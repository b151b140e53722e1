"""The actions of an h2probe scenario (see h2probe.py and docs/testing.md). Each action is a
JSON object whose "do" names it; streams are named by number or by the "label" a request
gave them."""
import time

import h2.errors
import h2.settings
from hpack import Encoder
from hyperframe.frame import ContinuationFrame, HeadersFrame

from h2wire import error_name


class ScenarioError(Exception):
    """The scenario asks for something this tool does not do."""


def field_bytes(item):
    """A name or value: text as UTF-8, or {"hex": "..."} for bytes that are not UTF-8 text."""
    if isinstance(item, dict):
        if set(item) != {"hex"}:
            raise ScenarioError("a field given as an object must be {\"hex\": ...}: %r" % (item,))
        try:
            return bytes.fromhex(str(item["hex"]))
        except ValueError as error:
            raise ScenarioError("bad hex %r: %s" % (item["hex"], error))
    return str(item).encode("utf-8")


def raw_headers(fields):
    """[[name, value], ...] as byte pairs, untouched: uppercase, CR/LF/NUL and pseudo-header
    order are sent as written."""
    if not isinstance(fields, list) or not all(isinstance(f, list) and len(f) == 2 for f in fields):
        raise ScenarioError("headers must be a list of [name, value] pairs: %r" % (fields,))
    return [(field_bytes(n), field_bytes(v)) for n, v in fields]


def request_headers(probe, action):
    """The action's "headers" as given, or a request built from method/path/authority/scheme
    plus "extra" fields."""
    if "headers" in action:
        return raw_headers(action["headers"])
    target = probe.scenario["connect"]
    authority = action.get("authority", "%s:%s" % (target.get("server_name", target.get("host", "127.0.0.1")),
                                                   target["port"]))
    fields = [[":method", action.get("method", "GET")], [":scheme", "https" if target.get("tls") else "http"],
              [":authority", authority], [":path", action.get("path", "/")]]
    return raw_headers(fields + action.get("extra", []))


class Runner:
    def __init__(self, probe):
        self.probe = probe
        self.labels = {}
        self.opened = []

    def sid(self, action, key="stream"):
        ref = action.get(key)
        if ref is None and self.opened:
            return self.opened[-1]
        if isinstance(ref, int):
            return ref
        if ref in self.labels:
            return self.labels[ref]
        raise ScenarioError("unknown stream %r" % (ref,))

    def open(self, action):
        conn = self.probe.conn
        sid = action.get("stream") if isinstance(action.get("stream"), int) else conn.get_next_available_stream_id()
        self.opened.append(sid)
        if "label" in action:
            self.labels[action["label"]] = sid
        entry = self.probe.stream(sid)
        entry["label"] = action.get("label")
        if action.get("read") is False:
            self.probe.no_read.add(sid)
        return sid

    def body(self, action):
        if "data" in action:
            return str(action["data"]).encode("utf-8")
        if "body" in action:
            return str(action["body"]).encode("utf-8")
        return b"x" * int(action.get("size", action.get("body_size", 0)))

    def send_data(self, sid, data, end_stream, timeout):
        """DATA within the peer's windows, waiting (bounded) for WINDOW_UPDATE."""
        probe, conn = self.probe, self.probe.conn
        if not data and end_stream:
            conn.end_stream(sid)
            probe.flush()
        while data:
            window = min(conn.local_flow_control_window(sid), conn.max_outbound_frame_size)
            if window <= 0:
                if not probe.pump(lambda: conn.local_flow_control_window(sid) > 0, timeout,
                                  "send window of stream %d" % sid):
                    return False
                continue
            chunk, data = data[:window], data[window:]
            conn.send_data(sid, chunk, end_stream=end_stream and not data)
            probe.flush()
        return True

    # ---------------------------------------------------------------- the actions
    def do_request(self, a):
        sid = self.open(a)
        body = self.body(a)
        trailers = a.get("trailers")
        end = a.get("end_stream", True)
        only_headers = not body and not trailers and end
        self.probe.conn.send_headers(sid, request_headers(self.probe, a), end_stream=only_headers)
        self.probe.flush()
        if body:
            self.send_data(sid, body, end and not trailers, self.timeout(a))
        if trailers:
            self.probe.conn.send_headers(sid, raw_headers(trailers), end_stream=True)
        self.probe.flush()

    def do_headers(self, a):
        sid = self.sid(a) if a.get("existing") else self.open(a)
        self.probe.conn.send_headers(sid, raw_headers(a["headers"]), end_stream=a.get("end_stream", False))
        self.probe.flush()

    def do_data(self, a):
        self.send_data(self.sid(a), self.body(a), a.get("end_stream", False), self.timeout(a))

    def do_trailers(self, a):
        self.probe.conn.send_headers(self.sid(a), raw_headers(a["headers"]), end_stream=True)
        self.probe.flush()

    def do_rst(self, a):
        sid = self.sid(a)
        self.probe.conn.reset_stream(sid, int(a.get("code", h2.errors.ErrorCodes.CANCEL)))
        code = int(a.get("code", h2.errors.ErrorCodes.CANCEL))
        self.probe.stream(sid)["reset_sent"] = {"code": code, "name": error_name(code), "at_ms": self.probe.now_ms()}
        self.probe.flush()

    def do_ping(self, a):
        for i in range(int(a.get("count", 1))):
            if self.probe.report["closed"]:
                break
            self.probe.conn.ping(i.to_bytes(8, "big"))
            self.probe.flush()
            self.probe.drain()

    def do_settings(self, a):
        values = {h2.settings.SettingCodes[k.upper()]: int(v) for k, v in a.get("values", {}).items()}
        for _ in range(int(a.get("count", 1))):
            if self.probe.report["closed"]:
                break
            self.probe.conn.update_settings(values)
            self.probe.flush()
            self.probe.drain()

    def do_window_update(self, a):
        sid = 0 if a.get("stream", 0) == 0 else self.sid(a)
        self.probe.conn.increment_flow_control_window(int(a["increment"]), None if sid == 0 else sid)
        self.probe.flush()

    def do_rapid_reset(self, a):
        code = int(a.get("code", h2.errors.ErrorCodes.CANCEL))
        for _ in range(int(a.get("count", 100))):
            if self.probe.report["closed"]:
                break
            sid = self.open({"read": True})
            self.probe.conn.send_headers(sid, request_headers(self.probe, a), end_stream=True)
            self.probe.conn.reset_stream(sid, code)
            self.probe.stream(sid)["reset_sent"] = {"code": code, "name": error_name(code), "at_ms": self.probe.now_ms()}
            self.probe.flush()
            self.probe.drain()

    def do_provoke_resets(self, a):
        """`count` requests whose DATA contradicts their content-length, so the server resets
        each stream itself ("MadeYouReset", CVE-2025-8671), written in one piece: the server
        reads them all before it answers, and a close of its own cannot cut the write short."""
        conn = self.probe.conn
        declared = str(a.get("declared", 1))
        data = str(a.get("data", "xy")).encode("utf-8")
        fields = dict(a, method=a.get("method", "POST"))
        fields["extra"] = a.get("extra", []) + [["content-length", declared]]
        for _ in range(int(a.get("count", 100))):
            sid = self.open({})
            conn.send_headers(sid, request_headers(self.probe, fields))
            conn.send_data(sid, data, end_stream=True)
        self.probe.flush()

    def do_continuation_flood(self, a):
        """HEADERS without END_HEADERS, then `count` CONTINUATION frames, written raw (the h2
        package would refuse). Each fragment is a literal never-indexed field, so the block
        stays decodable and the dynamic table is untouched."""
        conn = self.probe.conn
        sid = conn.get_next_available_stream_id()
        conn.highest_outbound_stream_id = sid  # later requests must not reuse the id
        self.opened.append(sid)
        self.probe.stream(sid)["label"] = a.get("label", "continuation-flood")
        encoder = Encoder()
        first = HeadersFrame(sid, data=encoder.encode(request_headers(self.probe, a)))
        first.flags.add("END_STREAM")
        self.probe.send_raw(first.serialize())
        fragment = Encoder().encode([(b"x-flood", b"a" * int(a.get("size", 16)), True)])
        count = int(a.get("count", 1000))
        sent = 0
        while sent < count and not self.probe.report["closed"]:
            wire = b""
            for i in range(sent, min(count, sent + 64)):
                frame = ContinuationFrame(sid, data=fragment)
                if a.get("end_headers") and i == count - 1:
                    frame.flags.add("END_HEADERS")
                wire += frame.serialize()
            sent = min(count, sent + 64)
            self.probe.send_raw(wire)
            self.probe.drain()
        self.probe.stream(sid)["continuation_frames_sent"] = sent

    def do_goaway(self, a):
        self.probe.conn.close_connection(int(a.get("code", 0)))
        self.probe.flush()

    def do_raw(self, a):
        self.probe.send_raw(bytes.fromhex(a["hex"]))

    def do_sleep(self, a):
        # Frames that arrive meanwhile are still read (PING, SETTINGS acks, responses).
        self.probe.pump(lambda: False, float(a.get("seconds", 0.1)), None)
        self.probe.report["timeouts"] = [t for t in self.probe.report["timeouts"] if t["waiting_for"]]

    def do_wait(self, a):
        what = a.get("for", "all")
        report = self.probe.report
        count = int(a.get("count", 1))
        if what in ("response", "end", "reset", "data"):
            sid = self.sid(a)
            entry = self.probe.stream(sid)
            key = {"response": "status", "end": "ended", "reset": "reset", "data": "first_data_ms"}[what]
            cond = lambda: entry[key] not in (None, False) or (what == "end" and entry["reset"] is not None)
            label = "%s of stream %d" % (what, sid)
        elif what == "all":
            cond = lambda: all(self.done(s) for s in self.opened)
            label = "every stream to end"
        elif what == "goaway":
            cond, label = (lambda: report["goaway"] is not None), "GOAWAY"
        elif what == "close":
            cond, label = (lambda: report["closed"]), "connection close"
        elif what == "pings":
            cond, label = (lambda: report["pings_acked"] >= count), "%d PING acks" % count
        elif what == "settings_ack":
            cond, label = (lambda: report["settings_acked"] >= count), "%d SETTINGS acks" % count
        else:
            raise ScenarioError("unknown wait %r" % what)
        self.probe.pump(cond, self.timeout(a), label)

    def done(self, sid):
        entry = self.probe.stream(sid)
        goaway = self.probe.report["goaway"]
        return (entry["ended"] or entry["reset"] is not None or "reset_sent" in entry
                or (goaway is not None and sid > goaway["last_stream_id"]))

    def timeout(self, a):
        return float(a.get("timeout", self.probe.timeout))


def run(probe, actions):
    runner = Runner(probe)
    for action in actions:
        name = action.get("do") if isinstance(action, dict) else None
        handler = getattr(runner, "do_%s" % name, None) if isinstance(name, str) else None
        if handler is None:
            raise ScenarioError("unknown action %r" % (action,))
        if probe.report["closed"] and name not in ("wait", "sleep"):
            continue
        handler(action)
    if probe.scenario.get("final_wait", True) and runner.opened:
        runner.do_wait({"for": "all"})
    probe.report["stream_ids"] = runner.opened
