import CLCMS2
import RawCore
import RawDevelop

/// MD5 through LittleCMS's exported implementation (the one it uses for ICC profile IDs), for digests other
/// modules need without owning the C library (DNG's `NewRawImageDigest`). Not thread-safe: one hasher per thread.
package final class MD5Hasher {
    private let handle: cmsHANDLE
    private var finished = false

    /// Starts an empty digest. LittleCMS allocates ~100 bytes of state; like `PixelStorage`, running out of
    /// memory for that stops the process.
    package init() {
        guard let handle = cmsMD5alloc(nil) else { fatalError("MD5Hasher: LittleCMS cannot allocate MD5 state") }
        self.handle = handle
    }

    deinit {
        // cmsMD5finish frees the state; a hasher never finished is finished into a scratch digest.
        if !finished {
            var scratch = cmsProfileID()
            cmsMD5finish(&scratch, handle)
        }
    }

    /// Adds bytes to the digest.
    package func add(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "MD5Hasher: add after finish")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var start = base.assumingMemoryBound(to: UInt8.self)
        var left = bytes.count
        while left > 0 {
            let n = min(left, Int(UInt32.max / 2))
            cmsMD5add(handle, start, UInt32(n))
            start += n
            left -= n
        }
    }

    /// The 16-byte digest of everything added; the hasher cannot be used afterwards.
    package func finish() -> [UInt8] {
        precondition(!finished, "MD5Hasher: finished twice")
        finished = true
        var id = cmsProfileID()
        cmsMD5finish(&id, handle)
        return withUnsafeBytes(of: &id) { Array($0.prefix(16)) }
    }
}
