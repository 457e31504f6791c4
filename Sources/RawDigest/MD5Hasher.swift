internal import CCrypto

/// MD5 through OpenSSL's libcrypto (EVP), for DNG's `NewRawImageDigest`: the raw digest's owner, so that the DNG writer
/// (and the burst engine behind it) links libcrypto for it and no image library. Not thread-safe: one hasher per
/// thread (the digest hashes its cells on several threads, each with its own).
package final class MD5Hasher {
    private let context: OpaquePointer
    private var finished = false

    /// Starts an empty digest. libcrypto allocates its small state; like `PixelStorage`, running out of memory for
    /// that stops the process.
    package init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_md5(), nil) == 1 else {
            fatalError("MD5Hasher: libcrypto cannot start an MD5 digest")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    package func add(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "MD5Hasher: add after finish")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("MD5Hasher: libcrypto's MD5 failed") }
    }

    /// The 16-byte digest of everything added; the hasher cannot be used afterwards.
    package func finish() -> [UInt8] {
        precondition(!finished, "MD5Hasher: finished twice")
        finished = true
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard digest.withUnsafeMutableBufferPointer({ EVP_DigestFinal_ex(context, $0.baseAddress, &length) }) == 1, length == 16 else {
            fatalError("MD5Hasher: libcrypto's MD5 failed")
        }
        return Array(digest.prefix(16))
    }
}
