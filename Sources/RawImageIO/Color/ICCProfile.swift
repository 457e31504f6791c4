import CLCMS2
import RawCore
import RawDevelop
import Synchronization

/// The ICC display profile of an output colour space, built with LittleCMS and embedded by every encoder.
///
/// The profile is an ICC v4.3 RGB display (`mntr`) matrix/TRC profile: `cmsCreateRGBProfile` with the
/// space's white and primaries (Bradford-adapted to the D50 connection space, with a `chad` tag) and one
/// parametric tone curve shared by the three channels, made from the `TransferFunction`'s own
/// parameters (ICC `para` function type 3, LittleCMS type 4; a pure power such as Adobe RGB's or linear
/// light is written as function type 0). v4 is used because its parametric curves carry the transfer
/// function exactly; a v2 profile would have to sample it into a table.
///
/// A grey picture (a monochrome sensor's) gets the space's grey profile instead: an ICC v4.3 grey display profile
/// (`cmsCreateGrayProfile`) with the space's white and the same parametric curve as its `grayTRC`, so a grey code
/// value means the luminance the space's neutral (v, v, v) has.
///
/// The bytes are reproducible: the header's creation date is fixed at ``creationDate`` and the profile ID
/// (MD5) is computed, so the same space and curve always give the same bytes. Profiles are built once per
/// (space, curve) and process and then served from a thread-safe cache.
public struct ICCProfile: Sendable, Hashable {
    /// The colour space the profile describes.
    public let colorSpace: OutputColorSpace
    /// The curve of the profile's TRC tags.
    public let transfer: TransferFunction
    /// True for a grey profile (one channel, `GRAY` data colour space).
    public let isGrey: Bool
    /// The profile description (`desc` tag), e.g. "Display P3", "Display P3 (linear)" or "Display P3 grey".
    public let description: String
    /// The serialised profile.
    public let data: [UInt8]

    /// The creation date written in every profile header (year, month, day, hour, minute, second, UTC).
    public static let creationDate: [UInt16] = [2025, 1, 1, 0, 0, 0]

    private struct Key: Hashable {
        let space: OutputColorSpace
        let transfer: TransferFunction
        let grey: Bool
    }

    private static let cache = Mutex<[Key: ICCProfile]>([:])

    /// The profile of `space` with its own transfer curve, built on first use.
    public static func profile(for space: OutputColorSpace) throws(DevelopError) -> ICCProfile {
        try profile(for: space, transfer: space.transfer)
    }

    /// The profile of `space` with `transfer` (its own curve, linear light, or another curve), built on first use.
    ///
    /// (No optional-curve parameter here on purpose: Swift 6.3.1 release builds miscompile throwing calls
    /// that pass `nil` for an optional `TransferFunction` argument.)
    public static func profile(for space: OutputColorSpace, transfer: TransferFunction) throws(DevelopError) -> ICCProfile {
        try cached(Key(space: space, transfer: transfer, grey: false))
    }

    /// The grey profile of `space` with `transfer` (the space's white, the curve as its `grayTRC`), built on first use.
    public static func greyProfile(for space: OutputColorSpace, transfer: TransferFunction) throws(DevelopError) -> ICCProfile {
        try cached(Key(space: space, transfer: transfer, grey: true))
    }

    /// The profile of `key` from the cache, built on first use.
    private static func cached(_ key: Key) throws(DevelopError) -> ICCProfile {
        if let known = cache.withLock({ $0[key] }) { return known }
        let built = try build(space: key.space, transfer: key.transfer, grey: key.grey)
        // Two threads may build the same profile at once; both results are byte-identical, keep the first.
        return cache.withLock { table in
            if let known = table[key] { return known }
            table[key] = built
            return built
        }
    }

    /// The profile of the samples of `image` (its colour space and transfer curve; the grey profile for a grey image).
    public static func profile(for image: DevelopedImage) throws(DevelopError) -> ICCProfile {
        image.isGrey ? try greyProfile(for: image.colorSpace, transfer: image.transfer)
                     : try profile(for: image.colorSpace, transfer: image.transfer)
    }

    /// The description of the profile for `space` with `transfer`: the space's own name for its own curve,
    /// with " (linear)" for linear light, or with the curve's exponent for any other curve; a grey profile's has
    /// " grey" after the space's name.
    public static func description(for space: OutputColorSpace, transfer: TransferFunction, grey: Bool = false) -> String {
        let name = space.description + (grey ? " grey" : "")
        if transfer == space.transfer { return name }
        if transfer == .linear { return name + " (linear)" }
        let gamma = (transfer.gamma * 1000).rounded() / 1000
        return name + " (gamma \(gamma))"
    }

    // MARK: - Building

    /// The LittleCMS parametric curve type and parameters for `transfer`.
    static func curveParameters(_ transfer: TransferFunction) -> (type: Int32, parameters: [Double]) {
        if transfer.a == 1 && transfer.b == 0 && transfer.d == 0 {
            return (1, [transfer.gamma]) // pure power (ICC function type 0)
        }
        return (4, [transfer.gamma, transfer.a, transfer.b, transfer.c, transfer.d])
    }

    private static func build(space: OutputColorSpace, transfer: TransferFunction, grey: Bool) throws(DevelopError) -> ICCProfile {
        let text = description(for: space, transfer: transfer, grey: grey)
        func failure(_ what: String) -> DevelopError {
            DevelopError("LittleCMS cannot build the \(text) ICC profile: \(what)")
        }
        let (type, parameters) = curveParameters(transfer)
        guard let curve = parameters.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, type, $0.baseAddress) })
        else { throw failure("invalid tone curve parameters \(parameters)") }
        defer { cmsFreeToneCurve(curve) }

        let white = space.whiteChromaticity
        var whitePoint = cmsCIExyY(x: white.x, y: white.y, Y: 1)
        let profile: LCMSProfile
        if grey {
            guard let handle = cmsCreateGrayProfile(&whitePoint, curve) else { throw failure("cmsCreateGrayProfile failed") }
            profile = LCMSProfile(handle)
        } else {
            let p = space.primaries
            var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: p[0].x, y: p[0].y, Y: 1),
                                            Green: cmsCIExyY(x: p[1].x, y: p[1].y, Y: 1),
                                            Blue: cmsCIExyY(x: p[2].x, y: p[2].y, Y: 1))
            var curves: [OpaquePointer?] = [curve, curve, curve]
            guard let handle = curves.withUnsafeMutableBufferPointer({ buffer in
                cmsCreateRGBProfile(&whitePoint, &primaries, buffer.baseAddress)
            }) else { throw failure("cmsCreateRGBProfile failed") }
            profile = LCMSProfile(handle)
        }

        guard let mlu = cmsMLUalloc(nil, 1) else { throw failure("out of memory") }
        defer { cmsMLUfree(mlu) }
        guard cmsMLUsetASCII(mlu, "en", "US", text) != 0,
              cmsWriteTag(profile.handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu)) != 0 else {
            throw failure("cannot write the description tag")
        }
        cmsSetHeaderRenderingIntent(profile.handle, UInt32(INTENT_PERCEPTUAL))
        // LittleCMS 2.14 stamps 4.4; nothing here needs more than ICC.1:2010 (4.3), which more readers accept.
        cmsSetProfileVersion(profile.handle, 4.3)
        var bytes = try profile.serialized(failure)

        // Fix the creation date (header bytes 24..<36, big-endian), then compute the ID over the final header.
        guard bytes.count > 128 else { throw failure("the serialised profile is only \(bytes.count) bytes") }
        for (i, field) in creationDate.enumerated() {
            bytes[24 + 2 * i] = UInt8(field >> 8)
            bytes[25 + 2 * i] = UInt8(field & 0xFF)
        }
        let dated = try LCMSProfile(bytes: bytes, failure)
        guard cmsMD5computeID(dated.handle) != 0 else { throw failure("cannot compute the profile ID") }
        let final = try dated.serialized(failure)
        // The embedded bytes must read back.
        _ = try LCMSProfile(bytes: final, failure)
        return ICCProfile(colorSpace: space, transfer: transfer, isGrey: grey, description: text, data: final)
    }
}

/// Owns one LittleCMS profile handle (closed on deinit). Not thread-safe: used by one thread at a time.
final class LCMSProfile {
    let handle: cmsHPROFILE

    init(_ handle: cmsHPROFILE) {
        self.handle = handle
    }

    /// Opens a serialised profile.
    init(bytes: [UInt8], _ failure: (String) -> DevelopError) throws(DevelopError) {
        guard bytes.count <= Int(UInt32.max),
              let opened = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            throw failure("LittleCMS cannot parse the profile (\(bytes.count) bytes)")
        }
        handle = opened
    }

    deinit { cmsCloseProfile(handle) }

    /// The profile's bytes.
    func serialized(_ failure: (String) -> DevelopError) throws(DevelopError) -> [UInt8] {
        var size: UInt32 = 0
        guard cmsSaveProfileToMem(handle, nil, &size) != 0, size > 0 else { throw failure("cannot measure the profile") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let ok = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(handle, $0.baseAddress, &size) }
        guard ok != 0 else { throw failure("cannot serialise the profile") }
        return Array(bytes.prefix(Int(size)))
    }
}
