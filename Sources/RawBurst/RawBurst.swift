import LJ92
/// RawBurst: the umbrella library. `import RawBurst` gives the public API of every rawburst module.
@_exported import RawCore
@_exported import LJ92
@_exported import RawDigest
@_exported import RawTIFF
@_exported import RawDevelop
@_exported import RawImageIO
@_exported import RawAnalysis
@_exported import RawDNG
@_exported import RawSources
@_exported import RawFiles
@_exported import RawSimulator
@_exported import RawJobs
@_exported import RawCapture
@_exported import RawCameras
@_exported import RawAravis
@_exported import RawLive
