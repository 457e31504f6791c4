#if canImport(Glibc)
import Glibc
#endif
import RawCore

/// The version string, copied once into C memory that lives as long as the process.
// Written once at first use (Swift's lazy global initialisation is thread-safe) and only read afterwards.
nonisolated(unsafe) private let versionText: UnsafeMutablePointer<CChar> = strdup(RawBurstVersion.string)!

@_cdecl("rawburst_version")
public func rawburst_version() -> UnsafePointer<CChar> { UnsafePointer(versionText) }

@_cdecl("rawburst_abi_version")
public func rawburst_abi_version() -> Int32 { abiVersion }
