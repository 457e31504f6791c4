import Foundation
import Testing
import TestSupport

/// The C ABI as a C user meets it (issue #34): Tests/CABI/abi_check.c compiled by gcc against
/// Sources/CRawBurst/include/rawburst.h and linked to the library by its soname (librawburst.so.1), then run: DNGs
/// written from its own strided buffer and read back sample for sample in three compressions, bad values refused
/// with their codes and nothing written, a development, three simulator frames into its buffers.
@Suite struct CABITests {
    /// The library SwiftPM built beside this test bundle.
    static var library: URL {
        CLI.executable.deletingLastPathComponent().appendingPathComponent("libCRawBurst.so")
    }

    /// Builds the C program against the header, linked by the soname as any user's program is.
    static func buildCheck(in tmp: TemporaryDirectory) throws -> URL {
        let libraryFolder = try tmp.subdirectory("lib")
        try FileManager.default.createSymbolicLink(at: libraryFolder.appendingPathComponent("librawburst.so.1"),
                                                   withDestinationURL: library)
        try FileManager.default.createSymbolicLink(at: libraryFolder.appendingPathComponent("librawburst.so"),
                                                   withDestinationURL: library)
        let program = tmp.file("abi_check")
        let root = TestPaths.packageRoot
        let compiled = try ExternalTool.run("gcc", [
            "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic",
            "-I", root.appendingPathComponent("Sources/CRawBurst/include").path,
            root.appendingPathComponent("Tests/CABI/abi_check.c").path, "-o", program.path,
            "-L", libraryFolder.path, "-lrawburst", "-Wl,-rpath," + libraryFolder.path, "-lm",
        ], timeout: 120)
        try #require(compiled.exitStatus == 0, "gcc: \(compiled.stderr)")
        return program
    }

    @Test func aCProgramWritesReadsDevelopsAndCapturesThroughTheHeader() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-cabi")
        let program = try Self.buildCheck(in: tmp)
        let needed = try ExternalTool.run("readelf", ["-d", program.path])
        #expect(needed.stdout.contains("[librawburst.so.1]"), "the program needs the soname: \(needed.stdout)")
        let out = try tmp.subdirectory("out")
        let ran = try ExternalTool(program.path).run([out.path], timeout: 120)
        #expect(ran.exitStatus == 0 && !ran.terminatedBySignal, "\(ran.stderr)")
        #expect(ran.stdout.contains("every check holds"), "\(ran.stdout)")
        // What the program wrote is a DNG to a checker nobody here wrote, in every compression.
        for name in ["none", "packed", "lj92"] {
            let problems = try ExifTool.validate(out.appendingPathComponent("\(name).dng").path)
            #expect(problems.isEmpty, "\(name).dng: \(problems)")
        }
        let tags = try ExifTool.tags(of: out.appendingPathComponent("lj92.dng").path, extraArguments: ["-n"])
        #expect(tags["IFD0:UniqueCameraModel"]?.string == "Example C Camera", "\(tags)")
        #expect(tags["SubIFD:CFAPattern2"]?.string == "1 0 2 1", "\(String(describing: tags["SubIFD:CFAPattern2"]))")
    }

    @Test func theHeaderCompilesAsCPlusPlusAndTheLibraryNamesItsABI() throws {
        let tmp = try TemporaryDirectory(prefix: "rawburst-cabi-cxx")
        let source = tmp.file("use.cpp")
        try Data("""
            #include "rawburst.h"
            #include <cstdio>
            int main() { std::printf("%d %s\\n", rawburst_abi_version(), rawburst_version()); return rawburst_abi_version() == RAWBURST_ABI_VERSION ? 0 : 1; }
            """.utf8).write(to: source)
        let libraryFolder = try tmp.subdirectory("lib")
        try FileManager.default.createSymbolicLink(at: libraryFolder.appendingPathComponent("librawburst.so"),
                                                   withDestinationURL: Self.library)
        try FileManager.default.createSymbolicLink(at: libraryFolder.appendingPathComponent("librawburst.so.1"),
                                                   withDestinationURL: Self.library)
        let program = tmp.file("use")
        let compiled = try ExternalTool.run("g++", [
            "-Wall", "-Werror", "-I", TestPaths.packageRoot.appendingPathComponent("Sources/CRawBurst/include").path,
            source.path, "-o", program.path, "-L", libraryFolder.path, "-lrawburst", "-Wl,-rpath," + libraryFolder.path,
        ], timeout: 120)
        try #require(compiled.exitStatus == 0, "g++: \(compiled.stderr)")
        let ran = try ExternalTool(program.path).run([])
        #expect(ran.exitStatus == 0 && ran.stdout.hasPrefix("1 "), "\(ran.stdout) \(ran.stderr)")
        let soname = try ExternalTool.run("readelf", ["-d", Self.library.path])
        #expect(soname.stdout.contains("Library soname: [librawburst.so.1]"), "\(soname.stdout)")
    }
}
