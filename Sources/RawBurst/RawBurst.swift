/// RawBurst: the umbrella library. `import RawBurst` gives the public API of every rawburst module.
@_exported import RawCore
@_exported import RawDevelop
@_exported import RawAnalysis
@_exported import RawDNG
@_exported import RawSensor
@_exported import RawCapture
