import RawCore

/// A TIFF-aware mutator for robustness tests (and, later, the fuzz targets): it finds a seed file's directories
/// and entries with its own small walker (no dependency on the reader under test) and damages them the way
/// hostile or broken files do — entry counts, field types (LONG8, SLONG8 and IFD8 included), value counts and
/// offsets, 64-bit values, looping and duplicated directories — besides plain byte flips and truncation.
///
/// Deterministic: the same seed file and the same generator state give the same mutant.
///
/// ```swift
/// let mutator = TIFFMutator(seed: bytes)
/// var rng = SplitMix64(seed: 17)
/// let mutant = mutator.mutate(using: &rng)   // mutant.bytes, mutant.description
/// ```
public struct TIFFMutator: Sendable {
    /// What a mutation changed.
    public enum Kind: String, Sendable, CaseIterable {
        /// A directory's entry count set to 0, 1, 32767, 65535 or a random value.
        case entryCount
        /// An entry's field type set to an unknown, 64-bit or other type.
        case fieldType
        /// An entry's value count set to 0, huge or the file size.
        case valueCount
        /// An entry's value offset pointed into the header, at the end, past the end or at a directory.
        case valueOffset
        /// An entry turned into LONG8/SLONG8/IFD8 values holding extreme 64-bit numbers (appended to the file).
        case wideValue
        /// A next-directory or sub-directory pointer aimed at a directory already in the chain, or just beside it.
        case loop
        /// A directory copied to the end of the file and chained again (its values shared twice).
        case duplicate
        /// A few bytes flipped, mostly inside the directories.
        case byteFlip
        /// The file cut short.
        case truncate
    }

    /// A damaged file and what was done to it.
    public struct Mutant: Sendable, CustomStringConvertible {
        /// The bytes of the damaged file.
        public let bytes: [UInt8]
        /// The kind of damage.
        public let kind: Kind
        /// What was changed, e.g. `"entryCount: directory at 1234 declares 65535 entries"`.
        public let description: String
    }

    /// The seed file.
    public let seed: [UInt8]
    /// True for a little-endian (`II`) file.
    public let littleEndian: Bool
    /// Offsets of the directories found (IFD chain and sub-directories).
    public let directoryOffsets: [Int]
    /// Positions of the 12-byte entries of those directories.
    public let entryPositions: [Int]
    /// Positions of 4-byte pointers to directories (the header's, next-directory links, sub-directory values).
    public let pointerPositions: [Int]

    /// Tags whose values point to directories: SubIFDs, EXIF, GPS, Interoperability.
    static let pointerTags: Set<UInt16> = [330, 34665, 34853, 40965]

    /// Finds the directories of `seed` (at most 64, following IFD links and sub-directory tags).
    public init(seed: [UInt8]) {
        self.seed = seed
        littleEndian = seed.count >= 2 && seed[0] == 0x49
        var directories: [Int] = [], entries: [Int] = [], pointers: [Int] = []
        var pending: [Int] = []
        if seed.count >= 8 {
            pointers.append(4)
            pending.append(Self.read32(seed, 4, littleEndian))
        }
        while let offset = pending.popLast(), directories.count < 64 {
            guard offset >= 8, offset + 2 <= seed.count, !directories.contains(offset) else { continue }
            directories.append(offset)
            let count = Self.read16(seed, offset, littleEndian)
            for index in 0..<count {
                let position = offset + 2 + 12 * index
                guard position + 12 <= seed.count else { break }
                entries.append(position)
                let tag = UInt16(Self.read16(seed, position, littleEndian))
                let type = Self.read16(seed, position + 2, littleEndian)
                let valueCount = Self.read32(seed, position + 4, littleEndian)
                guard Self.pointerTags.contains(tag), type == 4 || type == 13, (1...16).contains(valueCount) else { continue }
                let base = valueCount == 1 ? position + 8 : Self.read32(seed, position + 8, littleEndian)
                for k in 0..<valueCount where base + 4 * k + 4 <= seed.count {
                    pointers.append(base + 4 * k)
                    pending.append(Self.read32(seed, base + 4 * k, littleEndian))
                }
            }
            let next = offset + 2 + 12 * count
            if next + 4 <= seed.count {
                pointers.append(next)
                pending.append(Self.read32(seed, next, littleEndian))
            }
        }
        directoryOffsets = directories
        entryPositions = entries
        pointerPositions = pointers
    }

    /// One mutant of the seed, of a kind chosen by `rng` (see ``mutate(_:using:)``).
    public func mutate(using rng: inout SplitMix64) -> Mutant {
        mutate(Kind.allCases[Int(rng.next() % UInt64(Kind.allCases.count))], using: &rng)
    }

    /// One mutant of the seed of the given kind; a kind the seed has nothing for (no directories) flips bytes.
    public func mutate(_ kind: Kind, using rng: inout SplitMix64) -> Mutant {
        var bytes = seed
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        let entry = entryPositions.isEmpty ? nil : pick(entryPositions)
        let directory = directoryOffsets.isEmpty ? nil : pick(directoryOffsets)
        switch kind {
        case .entryCount:
            guard let directory else { break }
            let count = pick([0, 1, 32767, 65535, Int(rng.next() % 65536)])
            write16(&bytes, directory, count)
            return Mutant(bytes: bytes, kind: kind, description: "entryCount: directory at \(directory) declares \(count) entries")
        case .fieldType:
            guard let entry else { break }
            let type = pick([0, 13, 16, 17, 18, 19, 5, 12, 2, 7, Int(rng.next() % 20)])
            write16(&bytes, entry + 2, type)
            return Mutant(bytes: bytes, kind: kind, description: "fieldType: entry at \(entry) has type \(type)")
        case .valueCount:
            guard let entry else { break }
            let count = pick([0, 1, 2, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x2000_0000, seed.count, seed.count / 2, seed.count / 8,
                              Int(rng.next() % 0x1_0000_0000)])
            write32(&bytes, entry + 4, count)
            return Mutant(bytes: bytes, kind: kind, description: "valueCount: entry at \(entry) declares \(count) values")
        case .valueOffset:
            guard let entry else { break }
            let offset = pick([0, 3, 8, seed.count - 1, seed.count, seed.count + 8, 0xFFFF_FFFF, directory ?? 8,
                               Int(rng.next() % UInt64(max(1, seed.count)))])
            write32(&bytes, entry + 8, offset)
            return Mutant(bytes: bytes, kind: kind, description: "valueOffset: entry at \(entry) points to \(offset)")
        case .wideValue:
            guard let entry else { break }
            return wide(&bytes, entry: entry, using: &rng)
        case .loop:
            guard !pointerPositions.isEmpty, let directory else { break }
            let pointer = pick(pointerPositions)
            let target = directory + pick([0, 0, 2, 12, -2])
            write32(&bytes, pointer, target)
            return Mutant(bytes: bytes, kind: kind, description: "loop: pointer at \(pointer) aimed at \(target)")
        case .duplicate:
            guard let directory, !pointerPositions.isEmpty else { break }
            let count = Self.read16(seed, directory, littleEndian)
            let end = min(seed.count, directory + 2 + 12 * count + 4)
            let copy = bytes.count + (bytes.count & 1)
            if copy > bytes.count { bytes.append(0) }
            bytes.append(contentsOf: seed[directory..<end])
            let pointer = pick(pointerPositions)
            write32(&bytes, pointer, copy)
            return Mutant(bytes: bytes, kind: kind,
                          description: "duplicate: directory at \(directory) copied to \(copy), pointer at \(pointer) aimed at it")
        case .byteFlip, .truncate:
            break
        }
        if kind == .truncate, seed.count > 1 {
            let length = Int(rng.next() % UInt64(seed.count))
            return Mutant(bytes: Array(seed.prefix(length)), kind: .truncate, description: "truncate: cut to \(length) bytes")
        }
        return flip(&bytes, using: &rng)
    }

    /// The seed with a copy of the directory at `offset` appended, followed by `garbage` entries whose LONG values
    /// each cover half the file (as entries read over image data do), and every pointer to the directory aimed at
    /// the copy: a reader that copies each value, capped per entry but not per file, copies the file
    /// `garbage / 2` times over.
    package func withGarbageEntries(copying offset: Int, garbage: Int) -> [UInt8] {
        var bytes = seed
        let count = Self.read16(seed, offset, littleEndian)
        if bytes.count % 2 == 1 { bytes.append(0) }
        let copy = bytes.count
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 2 + 12 * (count + garbage) + 4))
        write16(&bytes, copy, count + garbage)
        bytes.replaceSubrange((copy + 2)..<(copy + 2 + 12 * count), with: seed[(offset + 2)..<(offset + 2 + 12 * count)])
        for index in 0..<garbage {
            let entry = copy + 2 + 12 * (count + index)
            write16(&bytes, entry, 65000 + index % 500)   // private tags
            write16(&bytes, entry + 2, 4)                  // LONG
            write32(&bytes, entry + 4, seed.count / 8)     // half the file
            write32(&bytes, entry + 8, 8)                  // just after the header
        }
        for pointer in pointerPositions where Self.read32(seed, pointer, littleEndian) == offset {
            write32(&bytes, pointer, copy)
        }
        return bytes
    }

    /// The seed with the image of the directory at `offset` enlarged to `side` x `side` 16-bit samples in one-row
    /// strips that all point at the first strip's bytes (each strip lies inside the file; together they would need
    /// `2 * side * side` bytes), its ActiveArea and default crop tags renamed to private tags. A reader that
    /// trusts each strip separately allocates the whole image for a small file. The seed's first strip must hold
    /// `2 * side` bytes.
    package func withOverlappingStrips(directoryAt offset: Int, side: Int) -> [UInt8] {
        var bytes = seed
        var positions: [Int: Int] = [:]
        for index in 0..<Self.read16(seed, offset, littleEndian) {
            let position = offset + 2 + 12 * index
            positions[Self.read16(seed, position, littleEndian)] = position
        }
        guard let stripOffsets = positions[273], positions[279] != nil else { return bytes }
        let first = Self.read32(seed, stripOffsets + 4, littleEndian) == 1
            ? Self.read32(seed, stripOffsets + 8, littleEndian)
            : Self.read32(seed, Self.read32(seed, stripOffsets + 8, littleEndian), littleEndian)
        func setLong(_ tag: Int, count: Int, value: Int) {
            guard let position = positions[tag] else { return }
            write16(&bytes, position + 2, 4)
            write32(&bytes, position + 4, count)
            write32(&bytes, position + 8, value)
        }
        setLong(256, count: 1, value: side)   // ImageWidth
        setLong(257, count: 1, value: side)   // ImageLength
        setLong(278, count: 1, value: 1)      // RowsPerStrip
        for (tag, value) in [(273, first), (279, 2 * side)] {
            while bytes.count % 4 != 0 { bytes.append(0) }
            let table = bytes.count
            bytes.append(contentsOf: [UInt8](repeating: 0, count: 4 * side))
            for row in 0..<side { write32(&bytes, table + 4 * row, value) }
            setLong(tag, count: side, value: table)
        }
        for tag in [50829, 50719, 50720] {    // ActiveArea, DefaultCropOrigin, DefaultCropSize
            if let position = positions[tag] { write16(&bytes, position, 65000 + tag % 100) }
        }
        return bytes
    }

    /// An entry retyped to a 64-bit type whose values (extreme numbers) are appended to the file.
    private func wide(_ bytes: inout [UInt8], entry: Int, using rng: inout SplitMix64) -> Mutant {
        let type = [16, 17, 18][Int(rng.next() % 3)]
        let extremes: [UInt64] = [.max, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0x1_0000_0000, 0xFFFF_FFFF, 65536, 0]
        let count = 1 + Int(rng.next() % 4)
        let at = bytes.count + (8 - bytes.count % 8) % 8
        bytes.append(contentsOf: [UInt8](repeating: 0, count: at - bytes.count))
        var values: [UInt64] = []
        for _ in 0..<count {
            let value = extremes[Int(rng.next() % UInt64(extremes.count))]
            values.append(value)
            for k in 0..<8 {
                let shift = UInt64(littleEndian ? k : 7 - k) * 8
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        write16(&bytes, entry + 2, type)
        write32(&bytes, entry + 4, count)
        write32(&bytes, entry + 8, at)
        return Mutant(bytes: bytes, kind: .wideValue,
                      description: "wideValue: entry at \(entry) is type \(type) with values \(values)")
    }

    /// One to eight bytes flipped, three times in four inside a directory.
    private func flip(_ bytes: inout [UInt8], using rng: inout SplitMix64) -> Mutant {
        guard !bytes.isEmpty else { return Mutant(bytes: bytes, kind: .byteFlip, description: "byteFlip: empty seed") }
        var positions: [Int] = []
        for _ in 0..<(1 + Int(rng.next() % 8)) {
            var position = Int(rng.next() % UInt64(bytes.count))
            if rng.next() % 4 != 0, !entryPositions.isEmpty {
                position = min(bytes.count - 1, entryPositions[Int(rng.next() % UInt64(entryPositions.count))] + Int(rng.next() % 12))
            }
            bytes[position] ^= UInt8(truncatingIfNeeded: 1 | rng.next())
            positions.append(position)
        }
        return Mutant(bytes: bytes, kind: .byteFlip, description: "byteFlip: bytes \(positions)")
    }

    // MARK: Byte access in the seed's order

    static func read16(_ bytes: [UInt8], _ at: Int, _ little: Bool) -> Int {
        guard at >= 0, at + 2 <= bytes.count else { return 0 }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    static func read32(_ bytes: [UInt8], _ at: Int, _ little: Bool) -> Int {
        let a = read16(bytes, at, little), b = read16(bytes, at + 2, little)
        return little ? a | b << 16 : a << 16 | b
    }

    private func write16(_ bytes: inout [UInt8], _ at: Int, _ value: Int) {
        guard at >= 0, at + 2 <= bytes.count else { return }
        let v = UInt16(truncatingIfNeeded: value)
        bytes[at] = UInt8(truncatingIfNeeded: littleEndian ? v : v >> 8)
        bytes[at + 1] = UInt8(truncatingIfNeeded: littleEndian ? v >> 8 : v)
    }

    private func write32(_ bytes: inout [UInt8], _ at: Int, _ value: Int) {
        let v = UInt32(truncatingIfNeeded: value)
        write16(&bytes, littleEndian ? at : at + 2, Int(v & 0xFFFF))
        write16(&bytes, littleEndian ? at + 2 : at, Int(v >> 16))
    }
}
