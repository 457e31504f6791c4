internal import CCrypto
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// SHA-256 (OpenSSL's libcrypto) of a file's bytes as lower-case hex: what the worker mode records for every output,
/// and checks again before it keeps an output on `--resume`.
public enum FileSHA256 {
    /// The digest of the file at `path`, read in 1 MiB chunks, or nil when it cannot be opened or read.
    public static func hex(ofFileAt path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            guard chunk.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, count) }) == 1 else { return nil }
        }
        return finish(context)
    }

    /// The digest of `bytes`.
    public static func hex(of bytes: [UInt8]) -> String {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("libcrypto cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1,
              bytes.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, $0.count) }) == 1,
              let digest = finish(context)
        else { preconditionFailure("libcrypto's SHA-256 failed") }
        return digest
    }

    private static func finish(_ context: OpaquePointer) -> String? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard digest.withUnsafeMutableBufferPointer({ EVP_DigestFinal_ex(context, $0.baseAddress, &length) }) == 1 else { return nil }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
