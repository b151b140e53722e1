-- wrk script for bench/run.sh: prints one machine-readable line at the end of a run.
-- Latencies from wrk are in microseconds.
done = function(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "BENCH requests=%d duration_us=%d bytes=%d connect_errors=%d read_errors=%d " ..
      "write_errors=%d status_errors=%d timeouts=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f " ..
      "max_us=%.1f\n",
      summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write,
      e.status, e.timeout, latency:percentile(50), latency:percentile(90),
      latency:percentile(99), latency.max))
end
