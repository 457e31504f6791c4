import Foundation
import RawCore
import RawSources

/// Where each sensor pixel looks in a scene's reference image plane, and how much light reaches it.
///
/// The reference plane is the view of the `phone-wide` lens (69.4° horizontally): its x runs from −1 to 1
/// across that view. A rectilinear lens of field of view θ sees x = ±tan(θ/2)/tan(34.7°) at its edges; an
/// equisolid fisheye maps image radius r to ray angle φ = 2·asin(r / 2f) and then sees the point of the
/// reference plane in that direction.
struct LensProjection: Sendable {
    /// Horizontal half field of view of the reference framing, in radians.
    static let referenceHalfFieldOfView = 69.4 / 2 * Double.pi / 180

    let width: Int
    let height: Int
    let lens: LensProfile
    /// tan of the reference half field of view, and of this lens's (computed once: `tan` per pixel cost a
    /// tenth of a frame's rendering).
    private let tanReference: Double
    private let tanHalfField: Double
    /// An equisolid lens's focal length in units of the half width, times two.
    private let twoF: Double
    /// The squared distance from the centre to a corner, in units of the half width.
    private let cornerSquared: Double

    /// The projection of `lens` onto a `width` x `height` sensor.
    init(width: Int, height: Int, lens: LensProfile) {
        self.width = width
        self.height = height
        self.lens = lens
        let halfField = lens.horizontalFieldOfView / 2 * Double.pi / 180
        tanReference = tan(Self.referenceHalfFieldOfView)
        tanHalfField = tan(halfField)
        twoF = 1 / sin(halfField / 2)
        cornerSquared = 1 + Double(height * height) / Double(width * width)
    }

    /// The normalised x of the centre of pixels in `column` (−1 at the left edge, 1 at the right).
    func normalisedX(column: Int) -> Double {
        let half = Double(width) / 2
        return (Double(column) + 0.5 - half) / half
    }

    /// The normalised y of the centre of pixels in `row` (in units of the half width, 0 at the centre).
    func normalisedY(row: Int) -> Double {
        let half = Double(width) / 2
        return (Double(row) + 0.5 - Double(height) / 2) / half
    }

    /// Scene coordinates of the centre of pixel (`row`, `column`).
    func sceneCoordinates(row: Int, column: Int) -> (x: Double, y: Double) {
        sceneCoordinates(xs: normalisedX(column: column), ys: normalisedY(row: row))
    }

    /// Scene coordinates of the image point at normalised (`xs`, `ys`).
    @inline(__always)
    func sceneCoordinates(xs: Double, ys: Double) -> (x: Double, y: Double) {
        switch lens.projection {
        case .rectilinear:
            let t = tanHalfField
            return (xs * t / tanReference, ys * t / tanReference)
        case .equisolid:
            let r = (xs * xs + ys * ys).squareRoot()
            guard r > 1e-12 else { return (0, 0) }
            // Focal length in units of the half width: the edge (r = 1) sees the half field of view.
            let phi = 2 * asin(min(1, r / twoF))
            let t = tan(min(phi, 1.55))
            return (xs / r * t / tanReference, ys / r * t / tanReference)
        }
    }

    /// Where the reference-plane point (`x`, `y`) lands in this lens's image, normalised (u across and v
    /// down, 0...1 inside the frame; outside that range the point is out of the frame). The inverse of
    /// ``sceneCoordinates(row:column:)``.
    func imagePoint(sceneX x: Double, sceneY y: Double) -> (u: Double, v: Double) {
        let tanReference = tan(Self.referenceHalfFieldOfView)
        let halfField = lens.horizontalFieldOfView / 2 * Double.pi / 180
        var xs: Double, ys: Double
        switch lens.projection {
        case .rectilinear:
            let t = tan(halfField)
            xs = x * tanReference / t
            ys = y * tanReference / t
        case .equisolid:
            let rScene = (x * x + y * y).squareRoot()
            if rScene < 1e-12 {
                xs = 0
                ys = 0
            } else {
                let phi = atan(rScene * tanReference)
                let r = sin(phi / 2) / sin(halfField / 2)
                xs = x / rScene * r
                ys = y / rScene * r
            }
        }
        let half = Double(width) / 2
        return (0.5 + xs / 2, 0.5 + ys * half / Double(height))
    }

    /// Relative illumination of pixel (`row`, `column`): 1 at the centre, 1 − vignetting at the corners,
    /// falling with the square of the distance from the centre.
    func illumination(row: Int, column: Int) -> Double {
        illumination(xs: normalisedX(column: column), ys: normalisedY(row: row))
    }

    /// Relative illumination of the image point at normalised (`xs`, `ys`).
    @inline(__always)
    func illumination(xs: Double, ys: Double) -> Double {
        return 1 - lens.vignetting * (xs * xs + ys * ys) / cornerSquared
    }
}
