"""One HTTPS request per connection through a forward proxy, one after another, for
bench/forward.sh: CONNECT, a TLS handshake verified against the proxy's CA, GET, read to the
end, close. Each connection's SNI is either a new name (the proxy mints a leaf for it) or the
same one (its leaf is cached), so the difference of the two runs' latencies is what a first
request to a new host costs.

    python3 forward_client.py --proxy 127.0.0.1:8888 --target 127.0.0.1:8443 --ca CA.pem \
        --count 200 --names new|cached --prefix run1 [--path /64]

Prints one line: `count=N errors=E p50_us=.. p90_us=.. mean_us=..`. The names are
PREFIX-N.bench.test (new) or cached.bench.test (cached); the origin's certificate must
cover *.bench.test. Exits 1 when more than a tenth of the connections fail.
"""
import argparse
import socket
import ssl
import statistics
import sys
import time


def one(proxy, target, name, context, path):
    started = time.perf_counter_ns()
    with socket.create_connection(proxy, timeout=10) as raw:
        raw.sendall(f"CONNECT {target[0]}:{target[1]} HTTP/1.1\r\nHost: {target[0]}:{target[1]}\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = raw.recv(4096)
            if not chunk:
                raise OSError("proxy closed before answering CONNECT")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 200" not in status:
            raise OSError(f"CONNECT answered {status!r}")
        with context.wrap_socket(raw, server_hostname=name) as tls:
            tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n".encode())
            body = b""
            while True:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                body += chunk
    if not body.startswith(b"HTTP/1.1 200"):
        raise OSError(f"answered {body[:40]!r}")
    return (time.perf_counter_ns() - started) // 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--proxy", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--names", choices=["new", "cached"], required=True)
    parser.add_argument("--prefix", default="h")
    parser.add_argument("--path", default="/64")
    args = parser.parse_args()
    host, _, port = args.proxy.rpartition(":")
    proxy = (host, int(port))
    host, _, port = args.target.rpartition(":")
    target = (host, int(port))
    context = ssl.create_default_context(cafile=args.ca)
    # No session resumption across names: each connection is a full handshake either way.
    latencies, errors = [], 0
    for index in range(args.count):
        name = f"{args.prefix}-{index}.bench.test" if args.names == "new" else "cached.bench.test"
        try:
            latencies.append(one(proxy, target, name, context, args.path))
        except (OSError, ssl.SSLError) as error:
            errors += 1
            if errors <= 3:
                print(f"forward_client: {name}: {error}", file=sys.stderr)
    if not latencies or errors * 10 > args.count:
        print(f"count={len(latencies)} errors={errors}")
        return 1
    latencies.sort()
    p90 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.9))]
    print(f"count={len(latencies)} errors={errors} p50_us={statistics.median(latencies):.0f} p90_us={p90} "
          f"mean_us={statistics.mean(latencies):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
