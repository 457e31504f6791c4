import CLCMS2

/// MD5 through LittleCMS's exported implementation (the one it uses for ICC profile IDs), for digests other
/// modules need without owning the C library (DNG's `NewRawImageDigest`). Not thread-safe: one hasher per thread.
package final class MD5Hasher {
    private let handle: cmsHANDLE?

    /// Starts an empty digest.
    package init() {
        handle = cmsMD5alloc(nil)
    }

    deinit {
        // cmsMD5finish frees the handle; a hasher never finished is finished into a scratch digest.
        if let handle, !finished {
            var scratch = cmsProfileID()
            cmsMD5finish(&scratch, handle)
        }
    }

    private var finished = false

    /// Adds bytes to the digest.
    package func add(_ bytes: UnsafeRawBufferPointer) {
        guard let handle, let base = bytes.baseAddress, bytes.count > 0, !finished else { return }
        var start = base.assumingMemoryBound(to: UInt8.self)
        var left = bytes.count
        while left > 0 {
            let n = min(left, Int(UInt32.max / 2))
            cmsMD5add(handle, start, UInt32(n))
            start += n
            left -= n
        }
    }

    /// The 16-byte digest of everything added; the hasher cannot be used afterwards. Nil if LittleCMS could
    /// not allocate its state.
    package func finish() -> [UInt8]? {
        guard let handle, !finished else { return nil }
        finished = true
        var id = cmsProfileID()
        cmsMD5finish(&id, handle)
        return withUnsafeBytes(of: &id) { Array($0.prefix(16)) }
    }
}
