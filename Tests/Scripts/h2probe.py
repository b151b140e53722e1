#!/usr/bin/python3
"""h2probe: a frame-level HTTP/2 client for conformance tests.

usage: h2probe.py SCENARIO.json | h2probe.py -   (the scenario on stdin) | h2probe.py '{...}'

Runs the scenario's actions in order on one connection and prints one JSON object on
stdout: what came back per stream, GOAWAY, whether the peer closed, timings. Every wait is
bounded. The scenario and report formats are described in docs/testing.md ("HTTP/2 test
tools"); the actions are in h2probe_actions.py. Exit status 0 when the report was printed
(whatever it says), 2 for a bad scenario.
"""
import sys

# The tools run from the source tree: no __pycache__ beside them.
sys.dont_write_bytecode = True

import hashlib
import json
import os
import socket
import ssl
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings

import h2probe_actions
from h2wire import FrameReader, client_socket, error_name, summary


class Probe:
    """One client connection, the h2 state machine beside a raw frame reader, and the report."""

    def __init__(self, scenario):
        self.scenario = scenario
        self.start = time.monotonic()
        self.timeout = float(scenario.get("timeout", 5))
        self.body_limit = int(scenario.get("body_limit", 8192))
        self.report = {"connected": False, "alpn": None, "error": None, "h2_error": None,
                       "streams": {}, "goaway": None, "closed": False, "peer_settings": {},
                       "pings_acked": 0, "settings_acked": 0, "frames": {}, "timeouts": []}
        self.bodies = {}
        self.no_read = set()
        self.frame_log = []
        self.sock = None
        self.h2_ok = True
        config = h2.config.H2Configuration(client_side=True, header_encoding="utf-8",
                                           validate_outbound_headers=False,
                                           normalize_outbound_headers=False,
                                           validate_inbound_headers=False)
        self.conn = h2.connection.H2Connection(config=config)
        self.reader = FrameReader()

    def now_ms(self):
        return round((time.monotonic() - self.start) * 1000, 1)

    def stream(self, sid):
        """The report entry of stream `sid`, created on first use."""
        return self.report["streams"].setdefault(str(sid), {
            "status": None, "headers": None, "informational": [], "trailers": None,
            "body_bytes": 0, "body_sha256": None, "body": None, "ended": False,
            "reset": None, "opened_ms": self.now_ms(), "headers_ms": None,
            "first_data_ms": None, "end_ms": None})

    # ------------------------------------------------------------------ connection
    def connect(self):
        target = self.scenario["connect"]
        self.sock, alpn = client_socket(target, self.timeout)
        self.report["connected"] = True
        self.report["alpn"] = alpn
        self.report["connect_ms"] = self.now_ms()
        if target.get("tls") and alpn != "h2":
            self.report["error"] = "h2 not negotiated (ALPN: %s)" % alpn
            return False
        self.conn.initiate_connection()
        settings = {}
        for name, value in self.scenario.get("settings", {}).items():
            settings[h2.settings.SettingCodes[name.upper()]] = int(value)
        if settings:
            self.conn.update_settings(settings)
        self.flush()
        return True

    def flush(self):
        data = self.conn.data_to_send()
        if data and not self.report["closed"]:
            try:
                self.sock.sendall(data)
            except OSError as error:
                self.report["closed"] = True
                self.report["send_error"] = str(error)

    def send_raw(self, data):
        """Bytes written as they are, behind whatever the state machine queued first."""
        self.flush()
        try:
            self.sock.sendall(data)
        except OSError as error:
            self.report["closed"] = True
            self.report["send_error"] = str(error)

    def drain(self):
        """Handles what has already arrived without waiting: floods call it between frames so
        a GOAWAY is read before the peer's close (a reset drops unread bytes)."""
        while not self.report["closed"]:
            self.sock.setblocking(False)
            try:
                data = self.sock.recv(65536)
            except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                return
            except OSError as error:
                data = b""
                self.report["recv_error"] = str(error)
            finally:
                self.sock.settimeout(self.timeout)
            if not data:
                self.report["closed"] = True
                self.report["closed_ms"] = self.now_ms()
                return
            self.receive(data)

    def pump(self, until, timeout, what):
        """Reads and handles frames until `until()` holds, the peer closes or `timeout`
        seconds pass (recorded under "timeouts" with `what`). Returns whether it held."""
        end = time.monotonic() + timeout
        while not until():
            if self.report["closed"]:
                return until()
            left = end - time.monotonic()
            if left <= 0:
                self.report["timeouts"].append({"waiting_for": what, "at_ms": self.now_ms()})
                return False
            self.sock.settimeout(min(left, 0.5))
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError as error:
                data = b""
                self.report["recv_error"] = str(error)
            if not data:
                self.report["closed"] = True
                self.report["closed_ms"] = self.now_ms()
                continue
            self.receive(data)
        return True

    def receive(self, data):
        for frame, length in self.reader.feed(data):
            item = summary(frame, length)
            counts = self.report["frames"]
            counts[item["name"]] = counts.get(item["name"], 0) + 1
            if len(self.frame_log) < 200:
                self.frame_log.append(dict(item, at_ms=self.now_ms()))
            if item["name"] == "GOAWAY":
                self.report["goaway"] = {"last_stream_id": item["last_stream_id"], "code": item["code"],
                                         "name": error_name(item["code"]), "at_ms": self.now_ms(),
                                         "debug": frame.additional_data.decode("utf-8", "replace")}
            elif item["name"] == "RSTSTREAM":
                self.stream(item["stream"])["reset"] = {"code": item["code"], "name": error_name(item["code"]),
                                                        "by": "peer", "at_ms": self.now_ms()}
        if not self.h2_ok:
            return
        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.H2Error as error:
            # The peer sent something this client's state machine refuses; the raw reader
            # above still records what follows.
            self.h2_ok = False
            self.report["h2_error"] = "%s: %s" % (type(error).__name__, error)
            return
        for event in events:
            self.handle(event)
        self.flush()

    def handle(self, event):
        if isinstance(event, (h2.events.ResponseReceived, h2.events.InformationalResponseReceived)):
            entry = self.stream(event.stream_id)
            headers = [[k, v] for k, v in event.headers]
            status = next((int(v) for k, v in headers if k == ":status"), None)
            if isinstance(event, h2.events.InformationalResponseReceived):
                entry["informational"].append({"status": status, "headers": headers})
            else:
                entry.update(status=status, headers=headers, headers_ms=self.now_ms())
        elif isinstance(event, h2.events.TrailersReceived):
            self.stream(event.stream_id)["trailers"] = [[k, v] for k, v in event.headers]
        elif isinstance(event, h2.events.DataReceived):
            entry = self.stream(event.stream_id)
            if entry["first_data_ms"] is None:
                entry["first_data_ms"] = self.now_ms()
            entry["body_bytes"] += len(event.data)
            digest, kept = self.bodies.setdefault(event.stream_id, (hashlib.sha256(), bytearray()))
            digest.update(event.data)
            kept += event.data[:max(0, self.body_limit - len(kept))]
            if event.stream_id in self.no_read:
                # The stream's own window stays consumed; the connection's is given back, so
                # only this stream stalls.
                self.conn.increment_flow_control_window(event.flow_controlled_length)
            else:
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            entry = self.stream(event.stream_id)
            entry.update(ended=True, end_ms=self.now_ms())
        elif isinstance(event, h2.events.RemoteSettingsChanged):
            for code, change in event.changed_settings.items():
                name = code.name if hasattr(code, "name") else str(code)
                self.report["peer_settings"][name] = change.new_value
        elif isinstance(event, h2.events.PingAckReceived):
            self.report["pings_acked"] += 1
        elif isinstance(event, h2.events.SettingsAcknowledged):
            self.report["settings_acked"] += 1

    # ---------------------------------------------------------------------- report
    def finish(self):
        for sid, (digest, kept) in self.bodies.items():
            entry = self.stream(sid)
            entry["body_sha256"] = digest.hexdigest()
            entry["body"] = kept.decode("utf-8", "replace")
        self.report["elapsed_ms"] = self.now_ms()
        if self.scenario.get("frame_log"):
            self.report["frame_log"] = self.frame_log
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        return self.report


def load_scenario(argv):
    if len(argv) != 2:
        raise ValueError("usage: h2probe.py SCENARIO.json | - | '{json}'")
    arg = argv[1]
    if arg == "-":
        return json.load(sys.stdin)
    if arg.lstrip().startswith("{"):
        return json.loads(arg)
    if os.path.exists(arg):
        with open(arg) as f:
            return json.load(f)
    raise ValueError("no scenario file %s" % arg)


def main(argv):
    try:
        scenario = load_scenario(argv)
        if "connect" not in scenario or "port" not in scenario["connect"]:
            raise ValueError("the scenario needs connect.port")
    except (ValueError, OSError) as error:
        print("h2probe: %s" % error, file=sys.stderr)
        return 2
    probe = Probe(scenario)
    try:
        if probe.connect():
            h2probe_actions.run(probe, scenario.get("actions", []))
    except h2probe_actions.ScenarioError as error:
        print("h2probe: %s" % error, file=sys.stderr)
        return 2
    except (OSError, h2.exceptions.H2Error) as error:
        probe.report["error"] = "%s: %s" % (type(error).__name__, error)
    json.dump(probe.finish(), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
