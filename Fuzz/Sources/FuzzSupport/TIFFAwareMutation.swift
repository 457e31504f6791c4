import CFuzzDriver
import RawBurst
import TIFFMutation

/// The custom mutator of the targets that read TIFF-based files (`LLVMFuzzerCustomMutator` forwards here): half the
/// time libFuzzer's own byte-level mutations, half the time `TIFFMutator`'s damage to directories, entry counts,
/// field types (LONG8, SLONG8, IFD8), value counts and offsets, 64-bit values, loops and duplicated directories —
/// the structure byte flips rarely reach.
public enum TIFFAwareMutation {
    /// Mutates the `size` bytes at `data` (a buffer of `maximumSize`) in place; returns the new size.
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maximumSize: Int, _ seed: UInt32) -> Int {
        guard let data else { return 0 }
        var rng = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(size))
        if rng.next() % 2 == 0 {
            let input = Array(UnsafeBufferPointer(start: data, count: size))
            let mutator = TIFFMutator(seed: input)
            if !mutator.directoryOffsets.isEmpty {
                let mutant = mutator.mutate(using: &rng).bytes
                if !mutant.isEmpty, mutant.count <= maximumSize {
                    mutant.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: mutant.count) }
                    return mutant.count
                }
            }
        }
        return LLVMFuzzerMutate(data, size, maximumSize)
    }
}
