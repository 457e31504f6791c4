import RawCore
import RawDevelop
import RawFiles

extension RawDeveloper {
    /// Develops whatever the file held: a mosaic or a linear raw.
    public func develop(_ content: RawFileContent) throws(DevelopError) -> Result {
        switch content {
        case .mosaic(let image): try develop(image)
        case .linear(let image): try develop(image)
        }
    }

    /// A quick rendering of whatever the file held, its long edge at most `longEdge`.
    public func preview(_ content: RawFileContent, longEdge: Int) throws(DevelopError) -> DevelopedImage {
        switch content {
        case .mosaic(let image): try preview(image, longEdge: longEdge)
        case .linear(let image): try preview(image, longEdge: longEdge)
        }
    }
}
