/// HAR documents the scenario builder tests read: a browser export written as Chrome writes
/// one (pages, `_initiator`, `-1` timings, `_error` on aborted requests with status 0, a
/// timed-out request, base64 bodies, HTTP/2 pseudo-headers, redacted values as a capture
/// tool leaves them).
public enum HARFixtures {
    public static let browser = #"""
    {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
     "pages": [{"startedDateTime": "2026-11-30T10:00:00.000Z", "id": "page_1", "title": "Checkout", "pageTimings": {"onLoad": 2100}}],
     "entries": [
      {"_initiator": {"type": "script"}, "_priority": "High", "_resourceType": "fetch", "cache": {}, "pageref": "page_1",
       "startedDateTime": "2026-11-30T10:00:00.100Z", "time": 42.5,
       "request": {"method": "GET", "url": "https://shop.example.com/api/cart?id=7", "httpVersion": "h2", "headers": [], "queryString": [{"name": "id", "value": "7"}], "cookies": [], "headersSize": -1, "bodySize": 0},
       "response": {"status": 200, "statusText": "", "httpVersion": "h2", "headers": [{"name": "content-type", "value": "application/json"}], "cookies": [], "content": {"size": 2, "mimeType": "application/json", "text": "{}"}, "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": 120, "_error": null},
       "serverIPAddress": "203.0.113.5", "_connectionId": "1",
       "timings": {"blocked": 1.2, "dns": -1, "ssl": -1, "connect": -1, "send": 0.1, "wait": 40.1, "receive": 1.1, "_blocked_queueing": 0.8}},
      {"startedDateTime": "2026-11-30T10:00:01.000Z", "time": 120,
       "request": {"method": "POST", "url": "https://shop.example.com/api/pay?attempt=1", "headers": [], "postData": {"mimeType": "application/json", "text": "{\"amount\": 12.5, \"currency\": \"EUR\"}"}},
       "response": {"status": 503, "statusText": "Service Unavailable", "headers": [
          {"name": ":status", "value": "503"}, {"name": "content-type", "value": "application/json"}, {"name": "retry-after", "value": "30"},
          {"name": "set-cookie", "value": "[REDACTED]"}, {"name": "content-length", "value": "31"}, {"name": "content-encoding", "value": "gzip"},
          {"name": "connection", "value": "keep-alive"}],
        "content": {"size": 31, "mimeType": "application/json", "text": "{\"error\": \"payments are down\"}"}},
       "timings": {"send": 1, "wait": 118, "receive": 1}},
      {"startedDateTime": "2026-11-30T10:00:01.400Z", "time": 95,
       "request": {"method": "POST", "url": "https://shop.example.com/api/pay?attempt=2", "headers": [], "postData": {"mimeType": "application/json", "text": "{\"amount\": 12.5, \"currency\": \"EUR\"}"}},
       "response": {"status": 503, "statusText": "Service Unavailable", "headers": [{"name": "Content-Type", "value": "application/json"}],
        "content": {"size": 31, "mimeType": "application/json", "encoding": "base64", "text": "eyJlcnJvciI6ICJwYXltZW50cyBhcmUgZG93biJ9"}},
       "timings": {"send": 1, "wait": 93, "receive": 1}},
      {"startedDateTime": "2026-11-30T10:00:01.800Z", "time": 0,
       "request": {"method": "GET", "url": "https://cdn.example.net/app.js", "headers": []},
       "response": {"status": 0, "statusText": "", "headers": [], "content": {"size": 0, "mimeType": "x-unknown"}, "_error": "net::ERR_CONNECTION_RESET"},
       "timings": {"blocked": -1, "dns": -1, "connect": -1, "send": 0, "wait": 0, "receive": 0}},
      {"startedDateTime": "2026-11-30T10:00:09.000Z", "time": 4200.25,
       "request": {"method": "GET", "url": "https://shop.example.com/api/recommendations", "headers": []},
       "response": {"status": 200, "statusText": "OK", "headers": [], "content": {"size": 2, "mimeType": "application/json", "text": "[]"}},
       "timings": {"send": 0, "wait": 4200, "receive": 0.25}},
      {"startedDateTime": "2026-11-30T10:00:20.000Z", "time": -1,
       "request": {"method": "POST", "url": "https://shop.example.com/graphql", "headers": [], "postData": {"mimeType": "application/json", "text": "{\"operationName\": \"PlaceOrder\", \"variables\": {}}"}},
       "response": {"status": 0, "statusText": "", "headers": [], "content": {"size": 0}, "_error": "net::ERR_TIMED_OUT"},
       "timings": {"blocked": 2, "dns": -1, "connect": -1, "send": 1, "wait": 29997, "receive": -1}},
      {"startedDateTime": "2026-11-30T10:00:20.100Z", "time": 30,
       "request": {"method": "POST", "url": "https://shop.example.com/graphql", "headers": [], "postData": {"mimeType": "application/json", "text": "{\"operationName\": \"GetCart\", \"variables\": {}}"}},
       "response": {"status": 200, "statusText": "OK", "headers": [], "content": {"size": 2, "mimeType": "application/json", "text": "{}"}},
       "timings": {"send": 0, "wait": 30, "receive": 0}},
      {"startedDateTime": "2026-11-30T10:00:25.000Z", "time": 12,
       "request": {"method": "GET", "url": "https://shop.example.com/api/pay?attempt=3", "headers": []},
       "response": {"status": 429, "statusText": "Too Many Requests", "headers": [{"name": "Retry-After", "value": "5"}], "content": {"size": 0, "mimeType": "text/plain", "text": ""}},
       "timings": {"send": 0, "wait": 12, "receive": 0}},
      {"startedDateTime": "2026-11-30T10:00:30.000Z", "time": 50,
       "request": {"method": "POST", "url": "https://shop.example.com/api/pay?attempt=4", "headers": [], "postData": {"mimeType": "application/json", "text": "{\"amount\": 12.5, \"currency\": \"EUR\"}"}},
       "response": {"status": 201, "statusText": "Created", "headers": [], "content": {"size": 2, "mimeType": "application/json", "text": "{}"}},
       "timings": {"send": 0, "wait": 50, "receive": 0}}
     ]}}
    """#
}
