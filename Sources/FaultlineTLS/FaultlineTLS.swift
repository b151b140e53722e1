// FaultlineTLS: OpenSSL behind a private import; see TLSSession.
