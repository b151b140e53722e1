#!/usr/bin/env bash
# Builds Faultline's container image with Debian's podman (container/Containerfile) and,
# with --check, proves it works without `podman run`: the image's filesystem is mounted,
# copied and entered with chroot, where the binary prints its version, checks the shipped
# config and serves a request on loopback through the demo origin.
#
#   scripts/container.sh                  release binary (static Swift runtime), image faultline:VERSION
#   scripts/container.sh --binary PATH    put this binary in the image instead of building one
#   scripts/container.sh --check          also check the image through chroot (needs root)
#   scripts/container.sh --save FILE      also write the image as an archive for `docker load -i FILE`
#
# The test command passes its debug build (--binary) so it does not build twice; the image
# a user ships comes from the release build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

binary=""
check=0
save=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --check) check=1; shift ;;
    --save) save="${2:?--save needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "container.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

fail() { echo "container.sh: $*" >&2; exit 1; }
command -v podman >/dev/null 2>&1 || fail "podman is missing: run scripts/setup.sh (it installs Debian's podman)"
if [[ $check -eq 1 && $(id -u) -ne 0 ]]; then
  fail "--check enters the image with chroot, which needs root (run it with sudo)"
fi

if [[ -z "$binary" ]]; then
  if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  fi
  swift build -c release --product faultline --static-swift-stdlib
  binary=.build/release/faultline
fi
[[ -f "$binary" && -x "$binary" ]] || fail "--binary $binary is not an executable file"

version=$("$binary" --version | awk '{print $NF}')
[[ -n "$version" ]] || fail "$binary --version printed no version"
image="localhost/faultline:$version"

# The build context: the Containerfile and a root filesystem holding only what the binary needs.
stage=.build/container
rm -rf "$stage"
rootfs="$stage/rootfs"
mkdir -p "$rootfs/usr/local/bin" "$rootfs/etc/faultline" "$rootfs/etc/ssl/certs" "$rootfs/tmp"
chmod 1777 "$rootfs/tmp"
cp container/Containerfile "$stage/Containerfile"
cp "$binary" "$rootfs/usr/local/bin/faultline"
# Every shared library the binary links, and the dynamic loader, at the paths it asks for.
libraries=$(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
[[ -n "$libraries" ]] || fail "ldd found no libraries in $binary"
for library in $libraries; do
  mkdir -p "$rootfs$(dirname "$library")"
  cp -L "$library" "$rootfs$library"
done
cp -L /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
# glibc resolves names through /etc/hosts and DNS (the runtime provides both files).
printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
cp container/faultline.json "$rootfs/etc/faultline/faultline.json"

podman build --quiet -t "$image" -t localhost/faultline:latest -f "$stage/Containerfile" "$stage" >/dev/null
echo "container.sh: built $image ($(du -sh "$rootfs" | cut -f1) of files: $(echo "$libraries" | wc -w) libraries, CA certificates, /etc/faultline/faultline.json)"

if [[ -n "$save" ]]; then
  podman save --format docker-archive -o "$save" "$image"
  echo "container.sh: saved $image to $save (docker load -i $save)"
fi

[[ $check -eq 1 ]] || exit 0

# --- The check: the image's own files, entered with chroot ---
root=$(mktemp -d)
pid=""
cleanup() {
  if [[ -n "$pid" ]]; then kill -KILL "$pid" 2>/dev/null || true; fi
  umount -l "$root/proc" 2>/dev/null || true
  umount -l "$root/dev" 2>/dev/null || true
  # Only once nothing is mounted below it any more.
  if ! grep -q " $root/" /proc/mounts; then rm -rf "$root"; fi
}
trap cleanup EXIT
mounted=$(podman image mount "$image")
cp -a "$mounted/." "$root/"
podman image unmount "$image" >/dev/null
# What every container runtime provides: /proc (the Swift runtime reads its arguments from
# /proc/self/cmdline) and /dev.
mkdir -p "$root/proc" "$root/dev"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
chroot_bin=$(command -v chroot) || fail "chroot is missing (coreutils)"
# The image's environment only: nothing of this shell's leaks in.
inside=(env -i PATH=/usr/local/bin SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt)

got=$("${inside[@]}" "$chroot_bin" "$root" /usr/local/bin/faultline --version)
[[ "$got" == "$("$binary" --version)" ]] || fail "faultline --version inside the image printed \"$got\""

# The shipped config binds the admin API to every address: without its token it must not start.
if out=$("${inside[@]}" "$chroot_bin" "$root" /usr/local/bin/faultline check-config /etc/faultline/faultline.json 2>&1); then
  fail "the image's config passed check-config without FAULTLINE_ADMIN_TOKEN: $out"
fi
grep -q "FAULTLINE_ADMIN_TOKEN" <<<"$out" || fail "check-config without the token did not name FAULTLINE_ADMIN_TOKEN: $out"
"${inside[@]}" FAULTLINE_ADMIN_TOKEN=check "$chroot_bin" "$root" /usr/local/bin/faultline check-config /etc/faultline/faultline.json >/dev/null \
  || fail "check-config refused the image's config with FAULTLINE_ADMIN_TOKEN set"

# Serve: the shipped config with free loopback ports instead of its fixed ones.
ports=$(python3 -c 'import socket
sockets = [socket.socket() for _ in range(3)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))')
read -r proxy_port admin_port origin_port <<<"$ports"
sed -e "s/0.0.0.0:8080/127.0.0.1:$proxy_port/" -e "s/0.0.0.0:9901/127.0.0.1:$admin_port/" \
    -e "s/127.0.0.1:8081/127.0.0.1:$origin_port/g" container/faultline.json > "$root/tmp/check.json"
log="$root/tmp/check.log"
"${inside[@]}" FAULTLINE_ADMIN_TOKEN=check "$chroot_bin" "$root" /usr/local/bin/faultline run --config /tmp/check.json >"$log" 2>&1 &
pid=$!
for _ in $(seq 1 300); do
  grep -q "listening on 127.0.0.1:$proxy_port" "$log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || fail "faultline exited inside the image: $(cat "$log")"
  sleep 0.1
done
grep -q "listening on 127.0.0.1:$proxy_port" "$log" || fail "faultline did not listen within 30 s: $(cat "$log")"
body=$(curl -fsS --max-time 10 "http://127.0.0.1:$proxy_port/json") || fail "no answer through the proxy: $(cat "$log")"
grep -q '"' <<<"$body" || fail "unexpected body through the proxy: $body"
status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$admin_port/health")
[[ "$status" == 401 ]] || fail "the admin API answered $status without the token (expected 401)"
status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H 'Authorization: Bearer check' "http://127.0.0.1:$admin_port/health")
[[ "$status" == 200 ]] || fail "the admin API answered $status with the token (expected 200)"
kill -TERM "$pid"
status=0; wait "$pid" || status=$?
[[ $status -eq 0 ]] || fail "faultline exited $status on SIGTERM (expected 0): $(cat "$log")"
pid=""
echo "container.sh: check of $image through chroot ok: --version, check-config (refused without FAULTLINE_ADMIN_TOKEN, accepted with it), a request through the proxy to the demo origin, the admin API's token"
