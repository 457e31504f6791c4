// swift-tools-version: 6.1
import PackageDescription

/// rawburst benchmarks (ordo-one/benchmark). A separate package so that the library does not depend on the
/// benchmark harness. Run from this directory:
///
///     swift package benchmark
///
/// Results and how to read them: ../docs/benchmarks.md.
///
/// SwiftPM names a path dependency after its folder (lower-cased), not after its manifest's `name`: the root
/// package is "rawburst" in a clone called rawburst, but "main" in a work tree called main.
let root: String = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? "rawburst"

let benchmarkDependencies: [Target.Dependency] = [
    .product(name: "Benchmark", package: "benchmark"),
    .product(name: "RawBurst", package: root),
    "BenchSupport",
]

let package = Package(
    name: "rawburst-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // LibRaw reached directly, for the baseline only (the root package's C modules are not products).
        .systemLibrary(name: "CLibRawBench", path: "Benchmarks/CLibRawBench", pkgConfig: "libraw_r",
                       providers: [.apt(["libraw-dev"])]),
        // Inputs shared by the benchmarks: synthetic frames, sample paths, scratch directories.
        .target(name: "BenchSupport", dependencies: [.product(name: "RawBurst", package: root)],
                path: "Benchmarks/BenchSupport"),
        .executableTarget(name: "DNGWrite", dependencies: benchmarkDependencies, path: "Benchmarks/DNGWrite",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "Convert", dependencies: benchmarkDependencies + ["CLibRawBench"],
                          path: "Benchmarks/Convert",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "Simulator", dependencies: benchmarkDependencies, path: "Benchmarks/Simulator",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "Develop", dependencies: benchmarkDependencies, path: "Benchmarks/Develop",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "Analysis", dependencies: benchmarkDependencies, path: "Benchmarks/Analysis",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "Burst", dependencies: benchmarkDependencies, path: "Benchmarks/Burst",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "LosslessJPEG", dependencies: benchmarkDependencies, path: "Benchmarks/LosslessJPEG",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "PixelFormats", dependencies: benchmarkDependencies, path: "Benchmarks/PixelFormats",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "LivePreview", dependencies: benchmarkDependencies, path: "Benchmarks/LivePreview",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "TIFFOutput", dependencies: benchmarkDependencies, path: "Benchmarks/TIFFOutput",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(name: "Worker", dependencies: benchmarkDependencies, path: "Benchmarks/Worker",
                          plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ],
    swiftLanguageModes: [.v6]
)
