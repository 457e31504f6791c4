/// How far apart the rows of a packed frame start.
public enum RowStride: Sendable, Hashable {
    /// No padding. For the V4L2 formats each row takes ``PixelFormat/bytesPerRow(width:)`` bytes (a CSI-2 group cut
    /// short by the end of a row is still a whole group). For the GenICam formats the frame is one stream: a row that
    /// ends inside a byte or a packing group is continued by the next row (GigE Vision says so of its `Packed` formats
    /// at odd widths; PFNC's "p" formats are one bit stream), so the frame unpacks as one row of `width * height`
    /// pixels.
    case tight
    /// Rows start this many bytes apart; the bytes after a row's pixels are padding and are not read. At least
    /// ``PixelFormat/bytesPerRow(width:)``.
    case bytes(Int)
}
