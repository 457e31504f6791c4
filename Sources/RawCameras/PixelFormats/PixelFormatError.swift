import RawCore

/// Why a pixel format name was not understood, or why a frame could not be unpacked. Callers decide by the case;
/// ``message`` is for people.
public enum PixelFormatError: RawBurstError, Hashable {
    /// The name is none of ``PixelFormat/knownNames``.
    case unknownName(String)
    /// Width or height is not positive, or `width * height` samples do not fit in memory.
    case badSize(width: Int, height: Int)
    /// The row stride is smaller than the bytes a row needs.
    case strideTooSmall(stride: Int, minimum: Int)
    /// The source buffer holds fewer bytes than the frame needs.
    case sourceTooShort(bytes: Int, needed: Int)
    /// The destination holds fewer samples than `width * height`.
    case destinationTooSmall(samples: Int, needed: Int)
    /// Unpacking in place: the frame's bytes start below the offset from which its samples cannot overtake them.
    case sourceOverlapsSamples(offset: Int, minimum: Int)
    /// A PiSP compressed block holds a code no compressor writes (an escape-mode level above 175): the data is not
    /// `PISP_COMP1`, or is damaged. `row` and `column` give the block's first pixel.
    case invalidCode(row: Int, column: Int)

    /// What is wrong, in one line.
    public var message: String {
        switch self {
        case .unknownName(let name):
            "unknown pixel format \"\(name)\"; known formats: \(PixelFormat.knownNames.joined(separator: ", "))"
        case .badSize(let width, let height):
            "a \(width)x\(height) frame has no pixels or too many"
        case .strideTooSmall(let stride, let minimum):
            "row stride \(stride) bytes is less than the \(minimum) bytes a row needs"
        case .sourceTooShort(let bytes, let needed):
            "the buffer holds \(bytes) bytes; the frame needs \(needed)"
        case .destinationTooSmall(let samples, let needed):
            "the destination holds \(samples) samples; the frame has \(needed)"
        case .sourceOverlapsSamples(let offset, let minimum):
            "the frame's bytes start at offset \(offset), below \(minimum), the lowest it can be unpacked in place from"
        case .invalidCode(let row, let column):
            "the PiSP compressed block at row \(row), pixel \(column) holds an invalid code (escape level above 175): "
                + "not PISP_COMP1 data, or damaged"
        }
    }

    /// `pixel format`.
    public var subject: String? { "pixel format" }
}
