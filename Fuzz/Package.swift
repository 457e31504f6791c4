// swift-tools-version: 6.1
import PackageDescription

/// libFuzzer targets for rawburst. A separate package because the fuzz executables only link with
/// `-sanitize=fuzzer` (libFuzzer provides `LLVMFuzzerRunDriver`), so a plain `swift build` of the root package
/// must never see them. Build and run with `make fuzz` from the root; details in README.md.
///
/// SwiftPM names a path dependency after its folder (lower-cased), not after its manifest's `name`: the root
/// package is "rawburst" in a clone called rawburst, but "main" in a work tree called main.
let root: String = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "rawburst"

let package = Package(
    name: "rawburst-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver for Swift (the definition comes from -sanitize=fuzzer).
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "FuzzLJ92", dependencies: [
            "CFuzzDriver",
            .product(name: "RawBurst", package: root),
        ]),
        // The driver every other target shares: --make-corpus, the one-line error check, scratch files, DNG seeds.
        .target(name: "FuzzSupport", dependencies: [
            "CFuzzDriver",
            .product(name: "RawBurst", package: root),
            .product(name: "TIFFMutation", package: root),
        ]),
        .executableTarget(name: "FuzzTIFF", dependencies: ["FuzzSupport", .product(name: "RawBurst", package: root)]),
        .executableTarget(name: "FuzzRawFile", dependencies: ["FuzzSupport", .product(name: "RawBurst", package: root)]),
        .executableTarget(name: "FuzzPicture", dependencies: ["FuzzSupport", .product(name: "RawBurst", package: root)]),
        .executableTarget(name: "FuzzText", dependencies: ["FuzzSupport", .product(name: "RawBurst", package: root)]),
    ],
    swiftLanguageModes: [.v6]
)
