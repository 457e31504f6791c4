import RawTIFF

/// A run of bytes the overlap check compares: image data (a strip or tile) or a piece of the TIFF structure.
struct FileSpan {
    let bytes: Range<Int>
    /// The directory it belongs to (`"file"` for the header).
    let directory: String
    /// How the problem names it, e.g. `"strip 0 of IFD0"` or `"the value of IFD0's ColorMatrix1"`.
    let name: String
    let isImageData: Bool

    var described: String { "\(name) (bytes \(bytes.lowerBound)..<\(bytes.upperBound))" }
}

extension DNGChecker {
    /// Image data that overlaps the file's TIFF structure (its header, a directory's entries, a tag's value stored
    /// out of line) or another strip or tile: a reader decoding it would read directory bytes as samples (or one
    /// strip's bytes twice), so the pixels are not what the file says they are. Every image directory's strips and
    /// tiles count; JPEG thumbnails (JPEGInterchangeFormat) do not, as some writers point them at a strip's bytes.
    ///
    /// One sweep over the spans sorted by their start finds, for every span that overlaps another of interest, at least
    /// one span it overlaps: the first ``detailLimit`` are reported, the rest counted.
    mutating func checkOverlaps() {
        var spans = structureSpans()
        for segment in s.dataSegments where segment.kind != .jpegThumbnail && segment.length > 0 {
            let name = "\(segment.kind.rawValue) \(segment.index) of \(segment.directory)"
            spans.append(FileSpan(bytes: segment.offset..<segment.end, directory: segment.directory, name: name, isImageData: true))
        }
        spans.sort { ($0.bytes.lowerBound, $0.bytes.upperBound) < ($1.bytes.lowerBound, $1.bytes.upperBound) }
        var furthestData: FileSpan?, furthestStructure: FileSpan?
        var found: [(FileSpan, FileSpan)] = []
        for span in spans {
            if span.isImageData {
                if let other = furthestStructure, other.bytes.upperBound > span.bytes.lowerBound { found.append((span, other)) }
                if let other = furthestData, other.bytes.upperBound > span.bytes.lowerBound { found.append((span, other)) }
                if span.bytes.upperBound > furthestData?.bytes.upperBound ?? Int.min { furthestData = span }
            } else {
                if let other = furthestData, other.bytes.upperBound > span.bytes.lowerBound { found.append((other, span)) }
                if span.bytes.upperBound > furthestStructure?.bytes.upperBound ?? Int.min { furthestStructure = span }
            }
        }
        for (data, other) in found.prefix(detailLimit) {
            error(data.directory, "image data overlaps \(other.isImageData ? "other image data" : "the TIFF structure"): "
                  + "\(data.described) overlaps \(other.described)")
        }
        if found.count > detailLimit {
            error("file", "\(found.count - detailLimit) more overlaps of image data with the TIFF structure or other image data")
        }
    }

    /// The header, every directory's entries and every value stored out of line, each clipped to the file.
    private func structureSpans() -> [FileSpan] {
        var spans = [FileSpan(bytes: 0..<8, directory: "file", name: "the TIFF header", isImageData: false)]
        for dir in s.directories {
            spans.append(FileSpan(bytes: dir.span.clamped(to: 0..<s.fileSize), directory: dir.path, name: dir.path, isImageData: false))
            for entry in dir.entries {
                guard let start = entry.valueOffset, start < s.fileSize, entry.byteCount > 0 else { continue }
                let (end, overflow) = start.addingReportingOverflow(entry.byteCount)
                let bytes = start..<(overflow ? s.fileSize : min(end, s.fileSize))
                let name = "the value of \(dir.path)'s \(TIFFTag.name(for: entry.tag, inDirectory: dir.path))"
                spans.append(FileSpan(bytes: bytes, directory: dir.path, name: name, isImageData: false))
            }
        }
        return spans.filter { !$0.bytes.isEmpty }
    }
}
