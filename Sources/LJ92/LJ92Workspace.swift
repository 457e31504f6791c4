/// Reusable scratch buffers for encoding lossless-JPEG images of up to a given size, one per worker thread;
/// `LJ92TileEncoder` pools them, so a burst does not allocate them per frame (only each tile's encoded bytes are
/// copied out). Not thread-safe; a workspace belongs to one thread at a time.
// @unchecked: raw buffers used by one thread at a time; LJ92TileEncoder hands a workspace out through a Mutex-guarded pool.
package final class LJ92Workspace: @unchecked Sendable {
    /// Per-sample prediction differences, modulo 2^16, as signed values.
    private(set) var differences: UnsafeMutablePointer<Int32>
    /// Per-sample difference category (SSSS).
    private(set) var categories: UnsafeMutablePointer<UInt8>
    /// Per-sample additional bits (the low SSSS bits are the ones written).
    private(set) var extraBits: UnsafeMutablePointer<UInt16>
    /// Encoded bytes.
    package private(set) var output: UnsafeMutablePointer<UInt8>
    /// A tile's samples, gathered from a frame (with edge padding).
    package private(set) var tile: UnsafeMutablePointer<UInt16>
    private(set) var sampleCapacity = 0
    private(set) var outputCapacity = 0

    /// Creates an empty workspace; buffers grow on first use.
    package init() {
        differences = .allocate(capacity: 1)
        categories = .allocate(capacity: 1)
        extraBits = .allocate(capacity: 1)
        output = .allocate(capacity: 1)
        tile = .allocate(capacity: 1)
    }

    deinit {
        differences.deallocate()
        categories.deallocate()
        extraBits.deallocate()
        output.deallocate()
        tile.deallocate()
    }

    /// The most bytes an encoded image of `samples` samples can take: at most 16 + 15 bits per sample, each
    /// byte possibly followed by a stuffed zero, plus the headers.
    static func worstCaseBytes(samples: Int) -> Int { samples * 8 + 1024 }

    /// Makes room for `samples` samples.
    package func reserve(samples: Int) {
        if samples > sampleCapacity {
            differences.deallocate(); differences = .allocate(capacity: samples)
            categories.deallocate(); categories = .allocate(capacity: samples)
            extraBits.deallocate(); extraBits = .allocate(capacity: samples)
            tile.deallocate(); tile = .allocate(capacity: samples)
            sampleCapacity = samples
        }
        let bytes = Self.worstCaseBytes(samples: samples)
        if bytes > outputCapacity {
            output.deallocate(); output = .allocate(capacity: bytes)
            outputCapacity = bytes
        }
    }
}
