import RawTIFF

extension TIFFDirectory {
    /// True when the directory's samples are laid out the plain way rawburst's direct readers decode (each tag as
    /// written or, when absent, its default): one integer sample per pixel (SamplesPerPixel 1, SampleFormat 1), rows
    /// after rows (PlanarConfiguration 1, RowInterleaveFactor 1, ColumnInterleaveFactor 1, SubTileBlockSize 1x1), each
    /// byte's bits most significant first (FillOrder 1). Anything else is left to LibRaw, or refused.
    var hasPlainSampleLayout: Bool {
        integerOrDefault(TIFFTag.samplesPerPixel) == 1
            && integerOrDefault(TIFFTag.sampleFormat) == 1
            && integerOrDefault(TIFFTag.planarConfiguration) == 1
            && integerOrDefault(TIFFTag.rowInterleaveFactor) == 1
            && integerOrDefault(TIFFTag.columnInterleaveFactor) == 1
            && integersOrDefault(TIFFTag.subTileBlockSize) == [1, 1]
            && integerOrDefault(TIFFTag.fillOrder) == 1
    }
}
