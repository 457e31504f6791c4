import RawDevelop

/// How two sensors' pictures share one preview.
public enum LivePreviewArrangement: String, Sendable, Hashable, CaseIterable {
    /// The first sensor's picture on top, the second's below.
    case stacked
    /// The first on the left, the second on the right.
    case sideBySide = "side-by-side"

    /// The arrangement closest to a composite's layout: a vertical stack is `stacked`, a horizontal one `sideBySide`;
    /// a picture in picture is shown `stacked` (the viewfinder shows both pictures whole).
    public init(_ layout: CompositeLayout) {
        switch layout {
        case .stacked(direction: .horizontal, split: _): self = .sideBySide
        case .stacked(direction: .vertical, split: _), .pictureInPicture: self = .stacked
        }
    }
}
