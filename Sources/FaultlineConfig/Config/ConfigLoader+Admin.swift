extension ConfigLoader {
    /// The `admin` section. A non-loopback address without a token is refused: anyone on
    /// the network could otherwise change rules or read the HAR capture.
    static func readAdmin(_ top: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics) -> AdminConfig? {
        guard let object = top.object("admin", known: ConfigKeys.admin, &diagnostics) else { return nil }
        let address = readAddress(object, &diagnostics)
        var token = object.string("token", expected: "a non-empty string", &diagnostics)
        if token?.isEmpty == true {
            diagnostics.add(object.path("token"), "expected a non-empty string, got \"\"")
        }
        // A container image ships one config for everyone: its token comes from the
        // environment (`-e FAULTLINE_ADMIN_TOKEN=…`), never from the image.
        if let variable = object.string("token_env", expected: "an environment variable name", &diagnostics) {
            if token != nil {
                diagnostics.add(object.path("token_env"), "give either admin.token or admin.token_env, not both")
            } else if let value = context.environment[variable], !value.isEmpty {
                token = value
            } else {
                diagnostics.add(object.path("token_env"), "environment variable \(variable) is not set or empty; set it to the admin token (for a container: -e \(variable)=…)")
            }
        }
        guard let address else { return nil }
        let admin = AdminConfig(address: address, token: token, configDirectory: context.baseDirectory)
        if token == nil && !admin.isLoopback {
            diagnostics.add(object.path("token"), "required when admin.address is not a loopback address (\(address)); set admin.token (or admin.token_env), or bind the admin API to 127.0.0.1")
        }
        return admin
    }
}
