// swift-tools-version: 6.1
import PackageDescription

/// rawburst used as a library, the way an application does: each example is one small program (≤ 30 lines) over
/// `import RawBurst`. `make test` builds and runs them (scripts/examples.sh); the DocC articles show the same calls.
let package = Package(
    name: "rawburst-examples",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "rawburst", path: "..")],
    targets: [
        .executableTarget(name: "ConvertToDNG", dependencies: [.product(name: "RawBurst", package: "rawburst")]),
        .executableTarget(name: "DevelopPicture", dependencies: [.product(name: "RawBurst", package: "rawburst")]),
        .executableTarget(name: "BufferToDNG", dependencies: [.product(name: "RawBurst", package: "rawburst")]),
        .executableTarget(name: "CaptureBurst", dependencies: [.product(name: "RawBurst", package: "rawburst")]),
        .executableTarget(name: "AnalyseFrame", dependencies: [.product(name: "RawBurst", package: "rawburst")]),
    ],
    swiftLanguageModes: [.v6]
)
