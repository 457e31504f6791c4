import RawCore

extension DNGWriter {
    /// Writes `image` with `codes` as its raw data: the stored codes, at the width they need (`lj92` precision,
    /// `packed` depth or 16-bit strips, as the options say), and their `LinearizationTable`, with `image`'s levels,
    /// crop, calibration and metadata (in linear units, as DNG applies BlackLevel and WhiteLevel after the table).
    /// The thumbnail and preview are rendered from `image`'s linear samples. `codes` must be the frame's size.
    @discardableResult
    public func write(_ image: RawImage, codes: DNGStoredCodes, to path: String) throws(DNGWriteError) -> Report {
        do {
            return try write(image, to: path, codes: codes, knownRawImageDigest: nil, beforeCommit: {})
        } catch let error as DNGWriteError {
            throw error
        } catch {
            throw DNGWriteError(path: path, "\(error)")
        }
    }
}
