/// Fields on every admin answer, and the policy the dashboard's page runs under. The page
/// may load only its own files, talk only to its own origin, run no inline script and be
/// framed by nobody; JSON answers get a policy that allows nothing at all, so one opened as
/// a page cannot run anything either.
enum AdminSecurityHeaders {
    /// The dashboard page's Content-Security-Policy: no inline script or style, no eval,
    /// nothing from another origin, no framing, no form posts, no `<base>`.
    static let pagePolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Every other answer's: nothing may load or run.
    static let apiPolicy = "default-src 'none'; frame-ancestors 'none'"

    /// On every admin answer (the page's files add `pagePolicy` over `apiPolicy`).
    static let common: [(StaticString, String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
}
