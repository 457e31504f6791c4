/// Values of TIFF 6 fields the writers set (TIFF 6.0 sections 8, 14 and 19; Adobe's floating-point
/// predictor from the DNG/TIFF technical notes).
package enum TIFFValue {
    /// SampleFormat 1: unsigned integer samples.
    package static let sampleFormatUnsigned: UInt16 = 1
    /// SampleFormat 3: IEEE floating-point samples.
    package static let sampleFormatFloat: UInt16 = 3
    /// PhotometricInterpretation 1: BlackIsZero (grey, 0 is black).
    package static let photometricBlackIsZero: UInt16 = 1
    /// PhotometricInterpretation 2: RGB.
    package static let photometricRGB: UInt16 = 2
    /// PlanarConfiguration 1: samples of a pixel stored together.
    package static let planarContiguous: UInt16 = 1
    /// Compression 5: LZW.
    package static let compressionLZW: UInt16 = 5
    /// Predictor 2: horizontal differencing.
    package static let predictorHorizontal: UInt16 = 2
    /// Predictor 3: floating-point (byte-plane) differencing.
    package static let predictorFloatingPoint: UInt16 = 3
}
