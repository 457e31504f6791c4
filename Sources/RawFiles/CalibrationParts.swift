import RawCore

/// The pieces of a `ColorCalibration` while they are gathered from LibRaw and, for DNG sources, the file's
/// own tags. Building validates them together.
struct CalibrationParts {
    var colorMatrix1: ColorMatrix?
    var illuminant1: LightSource = .unknown
    var colorMatrix2: ColorMatrix?
    var illuminant2: LightSource?
    var forwardMatrix1: ColorMatrix?
    var forwardMatrix2: ColorMatrix?
    var baselineExposure: Double
    var asShotNeutral: [Double]?
    /// Where `asShotNeutral` comes from (nil when there is none).
    var neutralOrigin: AsShotNeutralOrigin?
    /// The file's ProfileName (a name that marks a stand-in matrix among them).
    var profileName: String?

    init(baselineExposure: Double, asShotNeutral: [Double]?) {
        self.baselineExposure = baselineExposure
        self.asShotNeutral = asShotNeutral
    }

    /// The calibration, or nil without a first colour matrix and without a white balance. Optional pieces that do
    /// not fit the first matrix (a white balance or forward matrix for a different number of colours) are dropped; a
    /// first matrix that cannot be a camera matrix is an error. Without a matrix, a known three-colour white balance
    /// rides on ``ColorCalibration/standIn`` (the calibration a DNG of the frame carries), so that the frame develops
    /// with it as its DNG does.
    func calibration(path: String) throws(RawReadError) -> ColorCalibration? {
        guard let cm1 = colorMatrix1 else {
            guard let neutral = asShotNeutral, neutral.count == 3 else { return nil }
            return try? ColorCalibration.standIn.withAsShotNeutral(neutral)
        }
        let n = cm1.rows
        let cm2 = colorMatrix2.flatMap { $0.rows == n && $0.columns == 3 ? $0 : nil }
        let fits: (ColorMatrix?) -> ColorMatrix? = { m in m.flatMap { $0.rows == 3 && $0.columns == n ? $0 : nil } }
        var fm1 = fits(forwardMatrix1)
        var fm2 = cm2 == nil ? nil : fits(forwardMatrix2)
        if fm1 == nil { (fm1, fm2) = (nil, nil) }
        let neutral = asShotNeutral.flatMap { v in
            v.count == n && v.allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 16 }) ? v : nil
        }
        let baseline = baselineExposure.isFinite && abs(baselineExposure) <= 16 ? baselineExposure : 0
        do {
            return try ColorCalibration(colorMatrix1: cm1, illuminant1: illuminant1, colorMatrix2: cm2,
                                        illuminant2: cm2 == nil ? nil : (illuminant2 ?? .unknown),
                                        forwardMatrix1: fm1, forwardMatrix2: fm2, asShotNeutral: neutral,
                                        baselineExposure: baseline, profileName: profileName)
        } catch {
            throw RawReadError(path: path, kind: .invalidValue, detail: error.description)
        }
    }
}
