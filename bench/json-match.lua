-- wrk script for bench/json-match.sh: keep-alive POST of a 4 KiB JSON body, and the BENCH
-- line of stats.lua at the end.
dofile(os.getenv("BENCH_DIR") .. "/stats.lua")
local items = {}
for i = 1, 48 do
   items[#items + 1] = string.format('{"sku": "SKU-%05d", "qty": %d, "note": "%s"}', i, i % 7, string.rep("x", 40))
end
local body = '{"user": {"id": 42, "tier": "gold"}, "items": [' .. table.concat(items, ", ") .. ']}'
body = body .. string.rep(" ", math.max(0, 4096 - #body))
wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"
