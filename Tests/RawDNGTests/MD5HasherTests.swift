import Foundation
import RawDigest
import Testing

/// The MD5 behind NewRawImageDigest (issue #18 item 8): RFC 1321's test suite, and the same digest whatever the pieces.
@Suite struct MD5HasherTests {
    static func hex(_ text: String, pieces: Int = 1) -> String {
        let bytes = Array(text.utf8)
        let hasher = MD5Hasher()
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + size)
                hasher.add(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return hasher.finish().map { String(format: "%02x", $0) }.joined()
    }

    /// RFC 1321, appendix A.5.
    static let suite: [(String, String)] = [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ]

    @Test("RFC 1321's test suite, whole and added in 1, 3 and 7 pieces")
    func rfc1321() {
        for (text, digest) in Self.suite {
            for pieces in [1, 3, 7] {
                #expect(Self.hex(text, pieces: pieces) == digest, "\"\(text)\" in \(pieces) pieces")
            }
        }
    }
}
