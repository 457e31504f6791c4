#ifndef RAWBURST_CCRYPTO_SHIM_H
#define RAWBURST_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (EVP digests): MD5 for DNG's NewRawImageDigest, SHA-256 for the worker mode's outputs.
// Owned by RawDigest.
#include <openssl/evp.h>
#endif
