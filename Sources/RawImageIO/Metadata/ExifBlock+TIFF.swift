import RawTIFF

extension TagAssignment {
    /// The libtiff assignment of an EXIF field (libtiff knows each EXIF tag's type; rationals go through the
    /// exact-rational patch pass of `TIFFFinisher`).
    package init(field: ExifBlock.Field) {
        let tag = UInt16(field.tag)
        switch field.value {
        case .ascii(let text): self.init(tag, .text(text))
        case .bytes(let bytes), .undefined(let bytes): self.init(tag, .bytes(bytes))
        case .shorts(let values): self.init(tag, .unsigned(values.map(UInt64.init)))
        case .longs(let values): self.init(tag, .unsigned(values.map(UInt64.init)))
        case .rationals(let values), .signedRationals(let values): self.init(tag, .numbers(values))
        }
    }
}
