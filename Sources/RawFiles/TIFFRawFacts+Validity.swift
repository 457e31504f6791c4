import RawDNG

extension TIFFRawFacts {
    /// Throws `.corrupt` for a DNG that `DNGValidator` finds an error about its pixels in, naming the first: the
    /// reader is as strict as `inspect --validate`, so a file whose samples, layout, levels or colour tags validation
    /// fails never converts, develops or analyses as if it were sound. Errors about the file's identity only (a
    /// missing UniqueCameraModel, as PiDNG writes) and warnings do not stop a read; `inspect --validate` lists them.
    func checkValid(path: String) throws(RawReadError) {
        guard isDNG else { return }
        let errors = DNGValidator.validate(structure).filter { $0.isError && $0.aspect == .pixels }
        guard let first = errors.first else { return }
        let more = errors.count > 1 ? " (and \(errors.count - 1) more: inspect --validate lists them)" : ""
        throw RawReadError(path: path, kind: .corrupt, detail: "not a valid DNG: \(first.directory): \(first.message)\(more)")
    }
}
