# HTTP/2 scenarios of bench/run.sh (sourced by it): each proxy's third listener, TLS with
# ALPN h2 in front of the same HTTP/1.1 origin, loaded with h2load. See docs/bench.md.
#
# A proxy that does not negotiate h2 on that listener is not measured over HTTP/1.1 instead:
# it is reported as "PROXY: h2 not negotiated", its h2 cells read "h2 not negotiated", and the
# run goes on with the others.

declare -A H2_NEGOTIATED=()

# verify_h2 NAME URL-BASE : with curl --http2, the exact bytes of /64 and /1m at URL-BASE (the
# certificate verified against the bench CA), and whether h2 was negotiated.
verify_h2() {
  local name=$1 base=$2 version code
  for file in 64 1m; do
    read -r code version < <(curl -sS --max-time 10 --http2 --cacert "$WORK/tls/ca.pem" \
        -o "$WORK/$name.h2.$file" -w '%{http_code} %{http_version}\n' "$base/$file") \
      || { show_log "$name"; die "$name: GET $base/$file (h2 listener) failed"; }
    [[ $code == 200 ]] || { show_log "$name"; die "$name: GET $base/$file (h2 listener) returned HTTP $code"; }
    cmp -s "$WORK/$name.h2.$file" "$WORK/www/$file" \
      || die "$name: GET $base/$file (h2 listener) returned a body different from the origin's"
    rm -f "$WORK/$name.h2.$file"
  done
  if [[ $version == 2 ]]; then
    H2_NEGOTIATED[$name]=1
  else
    H2_NEGOTIATED[$name]=0
    echo "$name: h2 not negotiated (curl --http2 got HTTP/$version on the h2 listener); its h2 scenarios are not measured" >&2
  fi
}

# measure_h2 PROXY SCENARIO H2LOAD-ARGS... (the URL last) : like measure in run.sh, with
# h2load for the same time, CPU read the same way; the result line has the keys report.py reads.
measure_h2() {
  local p=$1 scenario=$2; shift 2
  local out="$WORK/h2load-$p-$scenario-$round.txt" limit=$((DURATION + WARMUP + 60)) line
  if ! kill -0 "${PID[$p]}" 2>/dev/null; then
    printf '%s\t%s\tstatus=died\n' "$p" "$scenario" >>"$RESULTS"
    return 0
  fi
  if [[ ${H2_NEGOTIATED[$p]:-0} != 1 ]]; then
    printf '%s\t%s\tstatus=no-h2\n' "$p" "$scenario" >>"$RESULTS"
    return 0
  fi
  if ((WARMUP > 0)); then
    timeout "$limit" h2load "$@" -D "$WARMUP" >"$WORK/h2load-$p-$scenario-$round.warmup.txt" 2>&1 || true
  fi
  counters_start "${PID[$p]}" "${PID[origin]}"
  if timeout "$limit" h2load "$@" -D "$DURATION" >"$out" 2>&1 \
      && counters_stop "${PID[$p]}" "${PID[origin]}" && line=$(python3 "$BENCH_DIR/h2load_stats.py" "$out"); then
    if [[ $line == no-h2* ]]; then
      echo "$p: h2 not negotiated (h2load: ${line#no-h2 })" >&2
      printf '%s\t%s\tstatus=no-h2\n' "$p" "$scenario" >>"$RESULTS"
    else
      printf '%s\t%s\t%s %s round=%d\n' "$p" "$scenario" "$line" "$(counter_fields)" "$round" >>"$RESULTS"
    fi
  else
    log "$p/$scenario: h2load failed:"; tail -n 5 "$out" >&2 || true
    printf '%s\t%s\tstatus=error\n' "$p" "$scenario" >>"$RESULTS"
  fi
  if ! kill -0 "${PID[$p]}" 2>/dev/null; then
    log "$p died during $scenario"
    show_log "$p"
    CRASHED+=("$p")
    printf '%s\t%s\tstatus=died\n' "$p" "$scenario" >>"$RESULTS"
  fi
}
