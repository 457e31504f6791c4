import RawCore

/// Turns a preview picture into compressed bytes: what a DNG writer embeds as its JPEG preview. The DNG writer takes
/// an encoder from the codec's owner (RawImageIO's `JPEGPreviews`, over libjpeg) instead of linking a codec itself, so
/// that it, and the burst engine behind it, link libtiff and no image library.
public protocol PreviewEncoding: Sendable {
    /// The compressed bytes of `image` at `quality` (1...100).
    func encode(_ image: RGB8Image, quality: Int) throws(DevelopError) -> [UInt8]
}
