import CLCMS2
import RawCore
import RawDevelop

/// LittleCMS as the reference for rawburst's colour arithmetic: CIELAB (D50) ↔ encoded RGB code values of an
/// output space, through the very ICC profile the encoders embed.
///
/// Transforms are relative colorimetric, without black-point compensation and unoptimised, in double
/// precision; code values are nominally 0...1 and are not clipped, so a colour outside the space's gamut
/// comes back with a value below 0 or above 1. LittleCMS evaluates linear-light curves slowly (see the
/// project notes): use this for checks and tests on a few colours, not to convert images.
public enum ColorReference {
    /// The code values (0...1) of `labD50` colours in `space` with its own transfer curve.
    public static func encode(labD50: [CIELab], space: OutputColorSpace) throws(DevelopError) -> [(Double, Double, Double)] {
        try encode(labD50: labD50, space: space, transfer: space.transfer)
    }

    /// The code values (0...1) of `labD50` colours in `space` with `transfer`.
    public static func encode(labD50: [CIELab], space: OutputColorSpace,
                              transfer: TransferFunction) throws(DevelopError) -> [(Double, Double, Double)] {
        let profile = try ICCProfile.profile(for: space, transfer: transfer)
        return try encode(labD50: labD50, profileData: profile.data)
    }

    /// The CIELAB (D50) colours of `encoded` code values (0...1) of `space` with its own transfer curve.
    public static func labD50(ofEncoded encoded: [(Double, Double, Double)],
                              space: OutputColorSpace) throws(DevelopError) -> [CIELab] {
        try labD50(ofEncoded: encoded, space: space, transfer: space.transfer)
    }

    /// The CIELAB (D50) colours of `encoded` code values (0...1) of `space` with `transfer`.
    public static func labD50(ofEncoded encoded: [(Double, Double, Double)], space: OutputColorSpace,
                              transfer: TransferFunction) throws(DevelopError) -> [CIELab] {
        let profile = try ICCProfile.profile(for: space, transfer: transfer)
        return try labD50(ofEncoded: encoded, profileData: profile.data)
    }

    /// The code values of `labD50` colours in the RGB space of the ICC profile `profileData` (for example a
    /// profile read back out of a written file).
    public static func encode(labD50: [CIELab], profileData: [UInt8]) throws(DevelopError) -> [(Double, Double, Double)] {
        var input = [Double](repeating: 0, count: labD50.count * 3)
        for (i, lab) in labD50.enumerated() {
            input[3 * i] = lab.L
            input[3 * i + 1] = lab.a
            input[3 * i + 2] = lab.b
        }
        let output = try transform(input, count: labD50.count, profileData: profileData, fromLab: true)
        return (0..<labD50.count).map { (output[3 * $0], output[3 * $0 + 1], output[3 * $0 + 2]) }
    }

    /// The CIELAB (D50) colours of `encoded` code values in the RGB space of the ICC profile `profileData`.
    public static func labD50(ofEncoded encoded: [(Double, Double, Double)],
                              profileData: [UInt8]) throws(DevelopError) -> [CIELab] {
        var input = [Double](repeating: 0, count: encoded.count * 3)
        for (i, rgb) in encoded.enumerated() {
            input[3 * i] = rgb.0
            input[3 * i + 1] = rgb.1
            input[3 * i + 2] = rgb.2
        }
        let output = try transform(input, count: encoded.count, profileData: profileData, fromLab: false)
        return (0..<encoded.count).map { CIELab(L: output[3 * $0], a: output[3 * $0 + 1], b: output[3 * $0 + 2]) }
    }

    /// Runs `count` triples through a Lab (D50) → profile transform, or the reverse.
    private static func transform(_ input: [Double], count: Int, profileData: [UInt8],
                                  fromLab: Bool) throws(DevelopError) -> [Double] {
        func failure(_ what: String) -> DevelopError { DevelopError("LittleCMS reference transform: \(what)") }
        guard count > 0 else { return [] }
        guard count <= Int(UInt32.max) else { throw failure("too many colours (\(count))") }
        let rgb = try LCMSProfile(bytes: profileData, failure)
        guard cmsGetColorSpace(rgb.handle) == cmsSigRgbData else {
            throw failure("the profile is not an RGB profile")
        }
        guard let labHandle = cmsCreateLab4Profile(nil) else { throw failure("cannot create the Lab profile") }
        let lab = LCMSProfile(labHandle)
        let flags = UInt32(cmsFLAGS_NOOPTIMIZE) | UInt32(cmsFLAGS_NOCACHE)
        let labFormat = UInt32(RB_TYPE_Lab_DBL), rgbFormat = UInt32(RB_TYPE_RGB_DBL)
        let created = fromLab
            ? cmsCreateTransform(lab.handle, labFormat, rgb.handle, rgbFormat, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags)
            : cmsCreateTransform(rgb.handle, rgbFormat, lab.handle, labFormat, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags)
        guard let xform = created else { throw failure("cannot create the transform") }
        defer { cmsDeleteTransform(xform) }
        var output = [Double](repeating: 0, count: count * 3)
        input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                cmsDoTransform(xform, source.baseAddress, destination.baseAddress, UInt32(count))
            }
        }
        return output
    }
}
