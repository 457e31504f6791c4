#ifndef RAWBURST_CCRYPTO_SHIM_H
#define RAWBURST_CCRYPTO_SHIM_H
// OpenSSL's libcrypto, for SHA-256 only (EVP digests; the worker mode's output digests).
#include <openssl/evp.h>
#endif
