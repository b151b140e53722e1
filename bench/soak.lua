-- wrk script for bench/soak.sh: a mix of routes (plain and the fault routes, chosen by Host),
-- paths (small, large, chunked, POST with a body) and connection reuse (a share of requests
-- ask for Connection: close, so wrk opens a new connection for the next). Each thread stops
-- sending after its quota of requests (the first script argument, per thread; wrk itself
-- still runs until -d, so bench/soak.sh sizes -d from the measured rate); the second
-- argument restricts the hosts ("faults" = fault routes only, for the checksummed phase).
local threads = {}

function setup(thread)
   thread:set("id", #threads)
   table.insert(threads, thread)
end

local quota = 0
local hosts
local all_hosts = {"plain.soak", "plain.soak", "plain.soak", "plain.soak", "status.soak", "delay.soak",
                   "close.soak", "reset.soak", "truncate.soak"}
local fault_hosts = {"status.soak", "delay.soak", "close.soak", "reset.soak", "truncate.soak"}
local paths = {"/64", "/64", "/json", "/bytes/2000", "/bytes/20000?chunked=1", "/echo"}
local body = string.rep("soak-body-", 100)

function init(args)
   quota = tonumber(args[1]) or 1000
   hosts = (args[2] == "faults") and fault_hosts or all_hosts
   math.randomseed(1000 + id)
   sent, responses, ok, injected, other = 0, 0, 0, 0, 0
end

function request()
   sent = sent + 1
   local headers = {Host = hosts[math.random(#hosts)]}
   if math.random(10) == 1 then headers["Connection"] = "close" end
   local path = paths[math.random(#paths)]
   if path == "/echo" then
      return wrk.format("POST", path, headers, body)
   end
   return wrk.format("GET", path, headers)
end

function response(status, headers, body)
   responses = responses + 1
   if status == 200 then ok = ok + 1 elseif status == 503 then injected = injected + 1 else other = other + 1 end
   if sent >= quota then wrk.thread:stop() end
end

done = function(summary, latency, requests)
   local s, r, o, i, x = 0, 0, 0, 0, 0
   for _, thread in ipairs(threads) do
      s = s + thread:get("sent")
      r = r + thread:get("responses")
      o = o + thread:get("ok")
      i = i + thread:get("injected")
      x = x + thread:get("other")
   end
   local e = summary.errors
   io.write(string.format(
      "SOAK sent=%d responses=%d status_200=%d status_503=%d status_other=%d duration_us=%d " ..
      "connect_errors=%d read_errors=%d write_errors=%d timeouts=%d p50_us=%.1f p99_us=%.1f\n",
      s, r, o, i, x, summary.duration, e.connect, e.read, e.write, e.timeout,
      latency:percentile(50), latency:percentile(99)))
end
