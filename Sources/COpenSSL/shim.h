#ifndef FAULTLINE_COPENSSL_SHIM_H
#define FAULTLINE_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/sha.h>

/* OpenSSL macros Swift cannot import, as prefixed functions. */

static inline int fl_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

static inline int fl_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline int fl_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

static inline long fl_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline long fl_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}

static inline int fl_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return (int)SSL_CTX_add1_chain_cert(ctx, cert);
}

static inline int fl_SSL_CTX_set_ecdh_auto(SSL_CTX *ctx) {
    return 1; /* always on since OpenSSL 1.1.0 */
}

typedef int (*fl_servername_cb)(SSL *ssl, int *alert, void *arg);

static inline int fl_SSL_CTX_set_tlsext_servername_callback(SSL_CTX *ctx, fl_servername_cb cb, void *arg) {
    if (!SSL_CTX_set_tlsext_servername_callback(ctx, cb)) return 0;
    return (int)SSL_CTX_set_tlsext_servername_arg(ctx, arg);
}

static inline void fl_BIO_set_retry_read(BIO *bio) {
    BIO_set_retry_read(bio);
}

static inline void fl_BIO_clear_retry_flags(BIO *bio) {
    BIO_clear_retry_flags(bio);
}

static inline long fl_SSL_CTX_set_read_ahead(SSL_CTX *ctx, int yes) {
    return SSL_CTX_set_read_ahead(ctx, yes);
}

static inline int fl_sk_X509_num(const STACK_OF(X509) *stack) {
    return sk_X509_num(stack);
}

static inline X509 *fl_sk_X509_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}

static inline int fl_SSL_set_app_data(SSL *ssl, void *data) {
    return SSL_set_app_data(ssl, data);
}

static inline void *fl_SSL_get_app_data(const SSL *ssl) {
    return SSL_get_app_data(ssl);
}

static inline int fl_SSL_CTX_set_app_data(SSL_CTX *ctx, void *data) {
    return SSL_CTX_set_app_data(ctx, data);
}

static inline void *fl_SSL_CTX_get_app_data(const SSL_CTX *ctx) {
    return SSL_CTX_get_app_data(ctx);
}

/* SSL_OP_* are built with SSL_OP_BIT(), which Swift cannot evaluate. */
static inline uint64_t fl_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t fl_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t fl_SSL_OP_CIPHER_SERVER_PREFERENCE(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }

static inline unsigned long fl_ERR_GET_LIB(unsigned long code) { return (unsigned long)ERR_GET_LIB(code); }
static inline unsigned long fl_ERR_GET_REASON(unsigned long code) { return (unsigned long)ERR_GET_REASON(code); }

#endif
