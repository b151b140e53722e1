#!/usr/bin/env bash
# Faultline setup: installs (only when missing) the Debian packages that the build,
# the tests and the main job need, and checks that a Swift toolchain is reachable.
# Idempotent: running it again when everything is present changes nothing.
#
#   scripts/setup.sh            build + test + run dependencies
#   scripts/setup.sh --bench    also nginx-light, haproxy and wrk for bench/run.sh (Debian 12's
#                               nginx-light pulls in nginx, built with the HTTP/2 module the
#                               h2 scenarios need; h2load comes with nghttp2-client), hey and
#                               mitmproxy (PyPI, in .build/bench-mitmproxy) for bench/forward.sh
#
# podman builds the container image (scripts/container.sh), which the test command checks.
# chromium and python3-venv serve the dashboard's browser tests (DashboardBrowserTests): see the
# virtual environment step at the end.
# python3-h2 (the `h2` package for /usr/bin/python3) drives the HTTP/2 conformance tools
# Tests/Scripts/h2probe.py, h2origin.py and h2conformance.py; python3-prometheus-client parses
# GET /metrics in the metrics tests; python3-requests is the second client stack of the
# forward-proxy tests (ForwardInterceptionTests).
# nodejs runs the PAC file the admin API serves (DeviceSetupTests), as a browser would.
set -euo pipefail

bench=0
for arg in "$@"; do
  case "$arg" in
    --bench) bench=1 ;;
    -h|--help)
      echo "usage: scripts/setup.sh [--bench]"
      exit 0 ;;
    *) echo "setup.sh: unknown argument: $arg (expected --bench)" >&2; exit 2 ;;
  esac
done

packages=(libssl-dev libnghttp2-dev node-llhttp pkg-config curl python3
          python3-h2 python3-prometheus-client python3-requests nghttp2-client openssl ca-certificates
          podman chromium python3-venv nodejs)
if [[ $bench -eq 1 ]]; then
  packages+=(nginx-light haproxy wrk strace linux-perf gcc hey valgrind binutils)
fi

missing=()
for pkg in "${packages[@]}"; do
  # dpkg-query prints the status alone: with `dpkg -s`, grep -q quit before a long
  # description was written, pipefail saw dpkg's SIGPIPE, and an installed package (podman)
  # counted as missing on every run.
  if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -gt 0 ]]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup.sh: missing packages (${missing[*]}) and apt-get is not available;" \
         "install them with your package manager" >&2
    exit 1
  fi
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo_cmd=(sudo)
    else
      echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  echo "setup.sh: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The h2 bench scenarios need nginx's HTTP/2 module (Debian 12's nginx has it).
if [[ $bench -eq 1 ]] && ! /usr/sbin/nginx -V 2>&1 | grep -q -- '--with-http_v2_module'; then
  echo "setup.sh: this nginx lacks the HTTP/2 module; bench/run.sh's h2 scenarios need it" \
       "(install Debian's nginx package, or run them with BENCH_SCENARIOS without h2)" >&2
fi

# Swift toolchain: on PATH, or the conventional /opt/swift location.
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "setup.sh: 'swift' not found on PATH (nor at /opt/swift/usr/bin)." >&2
  echo "          Install a Swift 6 toolchain from https://swift.org/install and put" >&2
  echo "          its usr/bin directory on PATH." >&2
  exit 1
fi
if [[ -n "${VERBOSE:-}" ]]; then
  swift --version >&2
fi

# The dashboard's browser tests drive Debian's chromium with Playwright for Python and check
# accessibility with axe-core (axe-playwright-python, which ships axe.min.js), both from PyPI.
# They live in a virtual environment under .build (the system Python is left alone; the venv
# also sees Debian's modules), made once and again only when a module is missing. Playwright's
# own browser download is never used: the tests launch /usr/bin/chromium.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.build/ui-venv"
if ! "$venv/bin/python" -c 'import playwright, axe_playwright_python' >/dev/null 2>&1; then
  echo "setup.sh: installing playwright and axe-playwright-python into $venv" >&2
  mkdir -p "$root/.build"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'playwright==1.65.2' 'axe-playwright-python==0.1.8'
fi

# bench/forward.sh compares with mitmproxy's mitmdump, from PyPI into its own virtual
# environment under .build (its pinned dependencies stay out of the system Python).
mitm="$root/.build/bench-mitmproxy"
if [[ $bench -eq 1 && ! -x $mitm/bin/mitmdump ]]; then
  echo "setup.sh: installing mitmproxy into $mitm" >&2
  /usr/bin/python3 -m venv "$mitm"
  "$mitm/bin/pip" install -q --disable-pip-version-check 'mitmproxy==11.0.2'
fi
exit 0
