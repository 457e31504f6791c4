// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// rawburst's own modules are compiled optimised in debug builds too (`swift build`, `swift test`): their pixel loops
/// run 10-50 times slower unoptimised, and the tests run the debug `rawburst` on real frames; dependencies stay as
/// SwiftPM builds them. `RAWBURST_ONONE=1` in the environment gives unoptimised modules again, for a debugger
/// (docs/testing.md).
let optimisedInDebug: [SwiftSetting] = ProcessInfo.processInfo.environment["RAWBURST_ONONE"] == "1"
    ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The C ABI's version: RAWBURST_ABI_VERSION in Sources/CRawBurst/include/rawburst.h and the soname's number.
let abiVersion = 1

/// rawburst: burst raw capture, DNG writing, raw development and analysis for Linux.
/// Layout and dependency direction are described in docs/architecture.md.
let package = Package(
    name: "rawburst",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RawBurst", targets: ["RawBurst"]),
        .executable(name: "rawburst", targets: ["rawburst"]),
        // The C ABI (Sources/CRawBurst/include/rawburst.h): `make lib` installs it as librawburst.so.1 (its soname).
        .library(name: "CRawBurst", type: .dynamic, targets: ["RawBurstABI"]),
        // For robustness tests and the fuzz package (Fuzz/), not for applications.
        .library(name: "TIFFMutation", targets: ["TIFFMutation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // `make docs`: the DocC catalog (Sources/RawBurst/RawBurst.docc) through `swift package generate-documentation`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries: one module map + shim header each. Only the owning Swift module imports them.
        .systemLibrary(name: "CLibRaw", path: "Sources/C/CLibRaw", pkgConfig: "libraw_r",
                       providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CTIFF", path: "Sources/C/CTIFF", pkgConfig: "libtiff-4",
                       providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CExif", path: "Sources/C/CExif", pkgConfig: "libexif",
                       providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CLCMS2", path: "Sources/C/CLCMS2", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CHeif", path: "Sources/C/CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJPEG", path: "Sources/C/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CAravis", path: "Sources/C/CAravis", pkgConfig: "aravis-0.8",
                       providers: [.apt(["libaravis-dev", "libusb-1.0-0-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng16",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/C/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // The only hand-written C, one target per owner: typed, non-variadic libtiff calls (RawTIFF), and
        // libjpeg/libpng with their errors caught (RawImageIO).
        .target(name: "CTIFFShims", dependencies: ["CTIFF"], path: "Sources/C/CTIFFShims"),
        .target(name: "CImageShims", dependencies: ["CJPEG", "CPNG"], path: "Sources/C/CImageShims"),

        .target(name: "RawCore", dependencies: [.product(name: "SystemPackage", package: "swift-system")], swiftSettings: optimisedInDebug),
        .target(name: "LJ92", swiftSettings: optimisedInDebug),
        .target(name: "RawTIFF", dependencies: ["RawCore", "CTIFFShims", "CTIFF", .product(name: "SystemPackage", package: "swift-system")], swiftSettings: optimisedInDebug),
        .target(name: "RawDevelop", dependencies: ["RawCore"], swiftSettings: optimisedInDebug),
        .target(name: "RawImageIO", dependencies: ["RawCore", "RawTIFF", "RawDevelop", "CImageShims", "CJPEG", "CPNG", "CExif",
                                                  "CLCMS2", "CHeif", .product(name: "SystemPackage", package: "swift-system")], swiftSettings: optimisedInDebug),
        // The digests: MD5 (DNG's NewRawImageDigest) and SHA-256 (the worker mode's outputs) through libcrypto.
        .target(name: "RawDigest", dependencies: ["CCrypto"], swiftSettings: optimisedInDebug),
        // A format writer: previews come in through RawDevelop's PreviewEncoding, EXIF fields from RawTIFF, digests from
        // RawDigest, so the DNG writer (and the burst engine) link libtiff and libcrypto and no image library.
        .target(name: "RawDNG", dependencies: ["RawCore", "RawTIFF", "LJ92", "RawDevelop", "RawDigest"], swiftSettings: optimisedInDebug),
        .target(name: "RawAnalysis", dependencies: ["RawCore", "RawDevelop", "RawImageIO"], swiftSettings: optimisedInDebug),
        .target(name: "RawSources", dependencies: ["RawCore"], swiftSettings: optimisedInDebug),
        // Real cameras: pixel formats and their unpackers (PixelFormats/), raw streams on stdin (Streams/). Builds
        // without Aravis.
        .target(name: "RawCameras", dependencies: ["RawCore", "RawSources", .product(name: "SystemPackage", package: "swift-system")], swiftSettings: optimisedInDebug),
        // GenICam cameras (GigE Vision, USB3 Vision) through Aravis: the only module that imports CAravis.
        .target(name: "RawAravis", dependencies: ["RawCore", "RawSources", "RawCameras", "CAravis"], swiftSettings: optimisedInDebug),
        .target(name: "RawFiles", dependencies: ["RawCore", "RawSources", "RawTIFF", "LJ92", "RawDevelop", "RawDNG", "RawImageIO", "CLibRaw"], swiftSettings: optimisedInDebug),
        .target(name: "RawSimulator", dependencies: ["RawCore", "RawSources", "RawAnalysis", "RawImageIO", "RawDNG"], swiftSettings: optimisedInDebug),
        .target(name: "RawJobs", dependencies: ["RawCore", "RawSources", "RawFiles", "RawCapture", "RawDevelop", "RawImageIO", "RawDNG",
                                                "RawAnalysis", "RawDigest"], swiftSettings: optimisedInDebug),
        .target(name: "RawCapture", dependencies: ["RawCore", "RawSources", "RawDevelop", "RawDNG",
                                                   .product(name: "SystemPackage", package: "swift-system")], swiftSettings: optimisedInDebug),
        // The live viewfinder: its server (Hummingbird + WebSocket, the only module that imports them), page, previews
        // and controls.
        .target(name: "RawLive", dependencies: ["RawCore", "RawSources", "RawCapture", "RawDNG", "RawDevelop", "RawImageIO",
                                                "RawAnalysis",
                                                .product(name: "Hummingbird", package: "hummingbird"),
                                                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket")], swiftSettings: optimisedInDebug),
        .target(name: "RawBurst", dependencies: ["RawCore", "LJ92", "RawDigest", "RawTIFF", "RawDevelop", "RawImageIO", "RawAnalysis", "RawDNG", "RawSources", "RawFiles",
                                                 "RawSimulator", "RawJobs", "RawCapture", "RawCameras", "RawAravis", "RawLive"], swiftSettings: optimisedInDebug),
        // The C ABI: the header and its small C part (defaults, the per-thread error message), and the Swift that
        // implements it over the library (`@_cdecl` functions; no Swift type crosses the header).
        .target(name: "CRawBurst", path: "Sources/CRawBurst"),
        .target(name: "RawBurstABI", dependencies: ["CRawBurst", "RawCore", "RawDNG", "RawFiles", "RawDevelop", "RawImageIO", "RawCapture",
                                                    "RawJobs", "RawSources", "RawSimulator", "RawCameras", "RawAravis"],
                swiftSettings: optimisedInDebug,
                linkerSettings: [.unsafeFlags(["-Xlinker", "-soname=librawburst.so.\(abiVersion)"])]),
        .executableTarget(name: "rawburst", dependencies: [
            "RawBurst",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: optimisedInDebug),

        // A TIFF-aware mutator (damaged directories, types, counts, offsets, loops) shared by the mutation tests and
        // the fuzz targets; it has its own small TIFF walker, so it does not depend on the reader it tests.
        .target(name: "TIFFMutation", dependencies: ["RawCore"], swiftSettings: optimisedInDebug),
        .target(name: "TestSupport", dependencies: ["RawCore", "TIFFMutation"], path: "Tests/TestSupport", swiftSettings: optimisedInDebug),
        .testTarget(name: "RawCoreTests", dependencies: ["RawCore", "TestSupport"]),
        .testTarget(name: "RawDevelopTests", dependencies: ["RawDevelop", "RawCore", "RawFiles", "RawSimulator", "RawJobs",
                                                            "RawDNG", "TestSupport"]),
        .testTarget(name: "RawJobsTests", dependencies: ["RawJobs", "RawDigest", "RawCore", "TestSupport"]),
        .testTarget(name: "RawAnalysisTests", dependencies: ["RawAnalysis", "RawDevelop", "RawCore", "RawFiles", "RawSimulator",
                                                             "RawDNG", "TestSupport"]),
        .testTarget(name: "RawImageIOTests", dependencies: ["RawImageIO", "RawDevelop", "RawDNG", "RawCore", "TestSupport"]),
        .testTarget(name: "LJ92Tests", dependencies: ["LJ92", "RawCore", "TestSupport"]),
        .testTarget(name: "RawDNGTests", dependencies: ["RawDNG", "RawTIFF", "LJ92", "RawImageIO", "RawDigest", "RawCore", "TestSupport"]),
        .testTarget(name: "RawFilesTests", dependencies: ["RawFiles", "RawSources", "RawSimulator", "RawDevelop", "RawDNG", "RawImageIO", "RawCore",
                                                          "TestSupport"]),
        .testTarget(name: "RawSimulatorTests", dependencies: ["RawSimulator", "RawSources", "RawAnalysis", "RawDevelop", "RawDNG",
                                                              "RawFiles", "RawJobs", "RawCore", "TestSupport"]),
        .testTarget(name: "RawCaptureTests", dependencies: ["RawCapture", "RawSources", "RawSimulator", "RawFiles", "RawTIFF", "RawImageIO", "RawCore",
                                                            "TestSupport"]),
        .testTarget(name: "RawCamerasTests", dependencies: ["RawCameras", "RawSources", "RawCore", "TestSupport"]),
        .testTarget(name: "RawAravisTests", dependencies: ["RawAravis", "RawCameras", "RawCore", "RawSources"]),
        .testTarget(name: "RawLiveTests", dependencies: ["RawLive", "RawCapture", "RawSources", "RawSimulator", "RawCore",
                                                         "RawImageIO", "RawDevelop",
                                                         "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "rawburst", "RawBurst"]),
    ],
    swiftLanguageModes: [.v6]
)
