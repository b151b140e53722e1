"""One HTTPS request per connection through a forward proxy, one after another, for
bench/forward.sh: CONNECT, a TLS handshake verified against the proxy's CA, GET, read to the
end, close. Each connection's SNI is either a new name (the proxy mints a leaf for it) or the
same one (its leaf is cached), so the difference of their latencies is what a first request
to a new host costs.

    python3 forward_client.py --proxy 127.0.0.1:8888 --target 127.0.0.1:8443 --ca CA.pem \
        --count 1000 --names mixed|new|cached --prefix run1 [--path /64]

`mixed` alternates a new name and the cached one, COUNT of each, so both see the same load
on a busy machine. Prints one line of key=value: count, errors, p50_us, p90_us, mean_us for
`new` and `cached`; for `mixed` each key twice, prefixed new_ and cached_. The names are
PREFIX-N.bench.test and cached.bench.test; the origin's certificate must cover
*.bench.test. Exits 1 when more than a tenth of the connections fail.
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
    parser.add_argument("--names", choices=["new", "cached", "mixed"], required=True)
    parser.add_argument("--prefix", default="h")
    parser.add_argument("--path", default="/64")
    args = parser.parse_args()
    host, _, port = args.proxy.rpartition(":")
    proxy = (host, int(port))
    host, _, port = args.target.rpartition(":")
    target = (host, int(port))
    context = ssl.create_default_context(cafile=args.ca)
    # No session resumption across names: each connection is a full handshake either way.
    kinds = ["new", "cached"] if args.names == "mixed" else [args.names]
    latencies = {kind: [] for kind in kinds}
    errors = {kind: 0 for kind in kinds}
    for index in range(args.count):
        for kind in kinds:
            name = f"{args.prefix}-{index}.bench.test" if kind == "new" else "cached.bench.test"
            try:
                latencies[kind].append(one(proxy, target, name, context, args.path))
            except (OSError, ssl.SSLError) as error:
                errors[kind] += 1
                if sum(errors.values()) <= 3:
                    print(f"forward_client: {name}: {error}", file=sys.stderr)
    fields, failed = [], False
    for kind in kinds:
        prefix = f"{kind}_" if args.names == "mixed" else ""
        values = sorted(latencies[kind])
        fields.append(f"{prefix}count={len(values)} {prefix}errors={errors[kind]}")
        if not values or errors[kind] * 10 > args.count:
            failed = True
            continue
        p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
        fields.append(f"{prefix}p50_us={statistics.median(values):.0f} {prefix}p90_us={p90} "
                      f"{prefix}mean_us={statistics.mean(values):.0f}")
    print(" ".join(fields))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
