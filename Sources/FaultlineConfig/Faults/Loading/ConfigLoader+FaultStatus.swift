extension ConfigLoader {
    /// A status object: code required; body and body_file exclusive.
    static func readStatus(_ object: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics) -> StatusFault? {
        var code: Int?
        if let value = object["code"] {
            code = statusCode(value, path: object.path("code"), &diagnostics)
        } else {
            diagnostics.add(object.path("code"), "expected 100...599, got nothing")
        }
        let headers = object["headers"].map { readHeaders($0, path: object.path("headers"), &diagnostics) } ?? []
        let contentType = object.string("content_type", expected: "a media type", &diagnostics)
        if let contentType, contentType.isEmpty || !isHeaderText(contentType) {
            diagnostics.add(object.path("content_type"), "expected a media type, got \(JSONValue.quoted(contentType))")
        }
        if contentType != nil, let clash = headers.first(where: { $0.name.lowercased() == "content-type" }) {
            diagnostics.add(
                Diagnostics.join(object.path("headers"), clash.name), "conflicts with content_type; set only one")
        }
        let upstream = object.bool("upstream", default: false, &diagnostics)
        var body = StatusFault.Body.empty
        if object["body"] != nil, object["body_file"] != nil {
            diagnostics.add(object.path, "expected at most one of body, body_file, got body, body_file")
        } else if let text = object.string("body", expected: "a string", &diagnostics) {
            body = .text(text)
        } else if let file = readBodyFile(object, context, &diagnostics) {
            body = .file(file)
        }
        guard let code else { return nil }
        return StatusFault(code: code, headers: headers, body: body, contentType: contentType, upstream: upstream)
    }
}
