import RawTIFF

/// A DNG could not be written: the TIFF writer's error, under the name the DNG writer's API has always used.
public typealias DNGWriteError = TIFFWriteError
