extension HAREntryEncoder {
    /// Writes the members of HAR's `response` object. An exchange that got no response
    /// (upstream down, client gone) still has one, with status 0 as HAR viewers expect.
    func writeResponse(_ response: inout HARJSONWriter) {
        let status = record.statusCode ?? 0
        response.member("status", status)
        response.member("statusText", HARStatusText.phrase(status))
        response.member("httpVersion", httpVersion)
        response.member("cookies", array: { cookies in
            for cookie in HARCookie.responseCookies(record.responseHeaders) { cookie.write(to: &cookies) }
        })
        response.member("headers", pairs: record.responseHeaders.map { ($0.name, $0.value) })
        response.member("content", object: { content in
            content.member("size", record.responseBodySize ?? 0)
            content.member("mimeType", Self.header("content-type", in: record.responseHeaders) ?? "")
            content.optionalMember("text", record.responseBody)
        })
        response.member("redirectURL", Self.header("location", in: record.responseHeaders) ?? "")
        response.member("headersSize", -1)
        response.member("bodySize", record.responseBodySize ?? -1)
    }
}
