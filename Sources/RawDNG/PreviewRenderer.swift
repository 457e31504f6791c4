import RawCore
import RawDevelop

/// The thumbnails and JPEG previews inside DNGs: RawDevelop's fast path (each CFA period binned into one pixel,
/// then resized and finished with the same colour plan as a full development); previews much smaller than the frame
/// are made band by band from the frame's periods averaged down to one per pixel (`BandedPreview`), so that they
/// cost a few milliseconds and well under a megabyte besides the picture.
///
/// As-shot white balance, the camera's matrices to sRGB, the standard tone curve and the file's BaselineExposure;
/// the default crop and square pixels are honoured, the orientation is not (DNG readers turn the preview with the
/// raw, by the Orientation tag). A monochrome frame's grey picture is stored as RGB with R = G = B (DNG thumbnails
/// and previews are RGB).
public enum PreviewRenderer {
    /// The development settings of DNG previews.
    public static let settings: DevelopSettings = {
        var s = DevelopSettings()
        s.applyOrientation = false
        s.sampleFormat = .uint8
        return s
    }()

    /// Renders `image` so that its long edge is at most `longEdge` pixels (never enlarged).
    ///
    /// A camera whose colour the developer cannot model (four colours) is rendered as if its RGB were sRGB; a frame
    /// that cannot be rendered at all (it never happens with a valid frame) gets a mid-grey picture of the right size.
    public static func render(_ image: RawImage, longEdge: Int) -> RGB8Image {
        let developer = RawDeveloper(settings: settings)
        var candidates = [image]
        if image.calibration != nil {
            var plain = image
            plain.calibration = nil
            candidates.append(plain)
        }
        for candidate in candidates {
            // A picture much smaller than the frame (the 1024 px preview of a 12 MP frame): band by band.
            if let banded = BandedPreview.render(candidate, longEdge: longEdge, developer: developer) {
                return banded
            }
            if let preview = try? developer.preview(candidate, longEdge: longEdge),
               let rgb = try? RGB8Image(width: preview.width, height: preview.height,
                                        pixels: preview.expandedToRGB().uint8Samples) {
                return rgb
            }
        }
        let crop = image.frame.defaultCrop
        let scale = min(1, Double(max(1, longEdge)) / Double(max(crop.width, crop.height)))
        let w = max(1, Int(Double(crop.width) * scale)), h = max(1, Int(Double(crop.height) * scale))
        return try! RGB8Image(width: w, height: h, pixels: [UInt8](repeating: 128, count: w * h * 3)) // sizes are positive
    }
}
