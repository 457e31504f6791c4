/// The directory walker behind ``TIFFStructure/init(bytes:)``.
///
/// Its work is bounded by the input: at most ``TIFFStructure/maximumDirectories`` directories, nested at most
/// ``TIFFStructure/maximumDepth`` deep, no directory read twice (loops), and every byte it copies out of the file
/// (directory entries and values stored out of line) charged to one budget of the file's size plus
/// ``TIFFStructure/copySlackBytes``, and at most ``TIFFStructure/maximumEntries`` entries. Problems are recorded
/// one line each, a few per directory; the rest are counted.
struct TIFFStructureParser {
    let bytes: TIFFBytes
    let order: TIFFStructure.ByteOrder
    var directories: [TIFFDirectory] = []
    var problems: [TIFFProblem] = []
    var visited: Set<Int> = []
    /// Bytes that may still be copied out of the file.
    var budget: Int
    /// Entries read so far, all directories together.
    var entryCount = 0
    /// Entry problems reported one by one per directory; the rest are counted.
    static let issuesPerDirectory = 8

    /// Problems of one directory's entries: the first few in words, the rest counted.
    struct EntryIssues {
        var listed: [(kind: TIFFProblem.Kind, message: String)] = []
        var more = 0
        var morePastEnd = false

        /// Records a problem; `message` is only built for the first ``TIFFStructureParser/issuesPerDirectory``.
        mutating func add(_ kind: TIFFProblem.Kind, _ message: @autoclosure () -> String) {
            if listed.count < TIFFStructureParser.issuesPerDirectory {
                listed.append((kind, message()))
            } else {
                more += 1
                morePastEnd = morePastEnd || kind == .pastEndOfFile
            }
        }
    }

    init(bytes: TIFFBytes, order: TIFFStructure.ByteOrder) {
        self.bytes = bytes
        self.order = order
        budget = bytes.count + TIFFStructure.copySlackBytes
    }

    var size: Int { bytes.count }

    /// Records a problem of directory `path`.
    mutating func note(_ kind: TIFFProblem.Kind, _ path: String, _ message: String) {
        problems.append(TIFFProblem(kind, directory: path, message))
    }

    /// Takes `count` bytes from the copy budget, or throws when the file's directories and values overlap
    /// beyond it.
    mutating func charge(_ count: Int, path: String) throws(TIFFStructureError) {
        guard count <= budget else {
            throw .limitExceeded(directory: path,
                                 limit: "its directories and values add up to more than the file's \(size) bytes "
                                     + "+ \(TIFFStructure.copySlackBytes) (they overlap: a damaged or hostile file)")
        }
        budget -= count
    }

    /// Reads IFD0, its sub-directories, then IFD1 and so on.
    mutating func parseChain(firstOffset: Int) throws(TIFFStructureError) {
        var offset = firstOffset
        var index = 0
        repeat { // IFD0 is always read: an offset of 0 there is an error, not an empty chain
            let path = "IFD\(index)"
            guard directories.count < TIFFStructure.maximumDirectories else {
                note(.malformed, path, "not read, more than \(TIFFStructure.maximumDirectories) directories")
                return
            }
            guard let dir = try walk(offset: offset, path: path, depth: 0, isFirst: index == 0) else { return }
            offset = dir.nextOffset
            index += 1
        } while offset != 0
    }

    /// Reads the directory at `offset` and everything it points to; nil when it was skipped.
    @discardableResult
    mutating func walk(offset: Int, path: String, depth: Int, isFirst: Bool) throws(TIFFStructureError) -> TIFFDirectory? {
        guard depth <= TIFFStructure.maximumDepth else {
            note(.malformed, path, "not read, nested deeper than \(TIFFStructure.maximumDepth) levels")
            return nil
        }
        guard directories.count < TIFFStructure.maximumDirectories else {
            note(.malformed, path, "not read, more than \(TIFFStructure.maximumDirectories) directories")
            return nil
        }
        guard !visited.contains(offset) else {
            note(.malformed, path, "offset \(offset) points to a directory already read (a loop); not followed")
            return nil
        }
        visited.insert(offset)
        guard let dir = try readDirectory(offset: offset, path: path, isFirst: isFirst) else { return nil }
        directories.append(dir)
        let children: [(UInt16, String)] = [
            (TIFFTag.subIFDs, "SubIFD"), (TIFFTag.exifIFD, "EXIF"), (TIFFTag.gpsIFD, "GPS"), (TIFFTag.interoperabilityIFD, "Interop"),
        ]
        for (tag, name) in children {
            guard let entry = dir[tag] else { continue }
            guard [.long, .ifd, .long8, .ifd8].contains(entry.type), let offsets = entry.integers else {
                if entry.valueAvailable {
                    note(.malformed, path, "\(entry.name) has type \(entry.type), not LONG or IFD; not followed")
                }
                continue
            }
            // SubIFDs may list several directories; EXIF, GPS and Interop point to one. The directory limit
            // ends a long list early (each child is checked against it).
            for (i, childOffset) in offsets.prefix(tag == TIFFTag.subIFDs ? offsets.count : 1).enumerated() where childOffset != 0 {
                if directories.count >= TIFFStructure.maximumDirectories {
                    note(.malformed, path, "\(offsets.count - i) more sub-directories not read, more than "
                         + "\(TIFFStructure.maximumDirectories) directories")
                    break
                }
                let childPath = tag == TIFFTag.subIFDs ? "\(path).\(name)\(i)" : "\(path).\(name)"
                try walk(offset: childOffset, path: childPath, depth: depth + 1, isFirst: false)
            }
        }
        return dir
    }

    /// Reads one directory's entries; throws for IFD0 problems and an exhausted copy budget, records and skips
    /// otherwise.
    mutating func readDirectory(offset: Int, path: String, isFirst: Bool) throws(TIFFStructureError) -> TIFFDirectory? {
        var failure: (kind: TIFFProblem.Kind, reason: String)?
        if offset < 8 {
            failure = (.malformed, "the offset is inside the 8-byte header")
        } else if offset > size - 2 {
            failure = (.pastEndOfFile, "the offset is past the end of the file (\(size) bytes)")
        } else if order.uint16(bytes, at: offset) == 0 {
            failure = (.malformed, "the directory has no entries")
        }
        if let failure {
            if isFirst { throw .badDirectory(path: path, offset: offset, reason: failure.reason) }
            note(failure.kind, path, "directory at offset \(offset) not read: \(failure.reason)")
            return nil
        }
        let declared = Int(order.uint16(bytes, at: offset))
        let fitting = (size - offset - 2) / 12
        var count = declared
        if declared > fitting {
            let reason = "its \(declared) entries need \(2 + 12 * declared + 4) bytes but the file ends \(size - offset) bytes after it"
            if isFirst { throw .badDirectory(path: path, offset: offset, reason: reason) }
            note(.pastEndOfFile, path, "directory at offset \(offset) is cut: \(reason); \(fitting) entries read")
            count = fitting
        }
        try charge(2 + 12 * count + 4, path: path)
        entryCount += count
        guard entryCount <= TIFFStructure.maximumEntries else {
            throw .limitExceeded(directory: path, limit: "the file's directories have more than "
                                     + "\(TIFFStructure.maximumEntries) entries together (a damaged or hostile file)")
        }
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(count)
        var issues = EntryIssues()
        for index in 0..<count {
            if let entry = try readEntry(at: offset + 2 + 12 * index, index: index, path: path, issues: &issues) {
                entries.append(entry)
            }
        }
        // A garbage directory can have thousands of bad entries: report a few and count the rest.
        problems += issues.listed.map { TIFFProblem($0.kind, directory: path, $0.message) }
        if issues.more > 0 {
            note(issues.morePastEnd ? .pastEndOfFile : .malformed, path,
                 "\(issues.more) more entries with unknown types or values past the end of the file")
        }
        var next = 0
        let nextPosition = offset + 2 + 12 * declared
        if count == declared {
            if nextPosition + 4 <= size {
                next = Int(order.uint32(bytes, at: nextPosition))
            } else {
                note(.pastEndOfFile, path, "the next-directory offset after its entries is past the end of the file")
            }
        }
        return TIFFDirectory(path: path, offset: offset, entries: entries, nextOffset: next, entryCount: count)
    }

    /// Reads the 12-byte entry at `position` and copies its value (bounded per entry, and charged to the file's
    /// budget); nil for an unknown field type.
    mutating func readEntry(at position: Int, index: Int, path: String,
                            issues: inout EntryIssues) throws(TIFFStructureError) -> TIFFEntry? {
        let tag = order.uint16(bytes, at: position)
        let code = order.uint16(bytes, at: position + 2)
        let count = Int(order.uint32(bytes, at: position + 4))
        guard let type = TIFFFieldType(rawValue: code) else {
            issues.add(.malformed, "entry \(index) (\(TIFFTag.name(for: tag))) has unknown field type \(code); skipped")
            return nil
        }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: type.size)
        if !overflow, byteCount <= 4 {
            return TIFFEntry(tag: tag, type: type, count: count, position: position, valueOffset: nil,
                             rawValue: bytes.copy((position + 8)..<(position + 8 + byteCount)),
                             valueAvailable: true, byteOrder: order)
        }
        let valueOffset = Int(order.uint32(bytes, at: position + 8))
        let (end, endOverflow) = valueOffset.addingReportingOverflow(byteCount)
        guard !overflow, !endOverflow, end <= size else {
            issues.add(.pastEndOfFile, "\(TIFFTag.name(for: tag)) value (\(count) \(type) at offset \(valueOffset)) "
                       + "extends past the end of the file (\(self.size) bytes)")
            return TIFFEntry(tag: tag, type: type, count: count, position: position, valueOffset: valueOffset,
                             rawValue: [], valueAvailable: false, byteOrder: order)
        }
        let cap = type.size == 1 ? TIFFEntry.maximumBlobBytes : TIFFEntry.maximumNumericBytes
        let stored = min(byteCount, cap) / type.size * type.size
        try charge(stored, path: path)
        return TIFFEntry(tag: tag, type: type, count: count, position: position, valueOffset: valueOffset,
                         rawValue: bytes.copy(valueOffset..<(valueOffset + stored)), valueAvailable: true, byteOrder: order)
    }
}
