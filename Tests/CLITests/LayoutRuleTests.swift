import Foundation
import Testing
import TestSupport

/// The layout's rules that keep the C libraries where they belong (docs/architecture.md), read from Package.swift and
/// the sources themselves: the burst engine's dependency closure holds libtiff's and the digest's C modules and no
/// other, and every C module is imported by exactly one Swift module.
@Suite struct LayoutRuleTests {
    /// Each target of Package.swift with the targets it depends on (products of other packages left out).
    static func targets() throws -> [String: [String]] {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(?:target|systemLibrary|executableTarget|testTarget)\(name: "([A-Za-z0-9]+)""#)
        var result: [String: [String]] = [:]
        let matches = text.matches(of: declaration)
        for (index, match) in matches.enumerated() {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : text.endIndex
            var body = String(text[match.range.upperBound..<end])
            guard let start = body.range(of: "dependencies: [") else { result[name] = []; continue }
            body = String(body[start.upperBound...])
            body = String(body.prefix { $0 != "]" })
            body = body.replacing(try Regex(#"\.product\([^)]*\)"#), with: "")
            result[name] = body.matches(of: try Regex(#""([A-Za-z0-9]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
        }
        return result
    }

    /// `name` and every target it depends on, directly or not.
    static func closure(of name: String, in targets: [String: [String]]) -> Set<String> {
        var seen: Set<String> = []
        var queue = [name]
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            queue += targets[next] ?? []
        }
        return seen
    }

    /// The C modules: Sources/C/'s folders, and CRawBurst (the ABI's header).
    static func cModules() throws -> Set<String> {
        let folders = try FileManager.default.contentsOfDirectory(atPath: TestPaths.packageRoot.appendingPathComponent("Sources/C").path)
        return Set(folders).union(["CRawBurst"])
    }

    /// The C modules the Swift files of `target` import.
    static func cImports(of target: String, cModules: Set<String>) throws -> Set<String> {
        try imports(of: target).intersection(cModules)
    }

    @Test func theBurstEnginesClosureHoldsLibTIFFAndTheDigestOnly() throws {
        let targets = try Self.targets()
        try #require(targets["RawCapture"] != nil && targets["RawDNG"] != nil, "Package.swift was not read: \(targets.keys.sorted())")
        let cModules = try Self.cModules()
        let closure = Self.closure(of: "RawCapture", in: targets)
        #expect(closure.intersection(cModules) == ["CTIFF", "CTIFFShims", "CCrypto"], "\(closure.intersection(cModules).sorted())")
        #expect(!closure.contains("RawImageIO") && !closure.contains("RawFiles") && !closure.contains("RawSimulator"),
                "\(closure.sorted())")
        // And no Swift file in the closure reaches another C library by an import SwiftPM would not see.
        for target in closure where !cModules.contains(target) {
            let imported = try Self.cImports(of: target, cModules: cModules)
            #expect(imported.isSubset(of: ["CTIFF", "CTIFFShims", "CCrypto"]), "\(target) imports \(imported.sorted())")
        }
    }

    @Test func everyCModuleHasOneOwner() throws {
        let targets = try Self.targets()
        let cModules = try Self.cModules()
        var owners: [String: Set<String>] = [:]
        for target in targets.keys where !cModules.contains(target) && !target.hasSuffix("Tests") && target != "TestSupport" {
            for module in try Self.cImports(of: target, cModules: cModules) { owners[module, default: []].insert(target) }
        }
        for (module, owning) in owners { #expect(owning.count == 1, "\(module) is imported by \(owning.sorted())") }
        #expect(owners["CCrypto"] == ["RawDigest"] && owners["CTIFF"] == ["RawTIFF"] && owners["CLibRaw"] == ["RawFiles"],
                "\(owners)")
    }

    @Test func everyModuleAFileImportsIsADeclaredDependency() throws {
        let targets = try Self.targets()
        let ownModules = Set(targets.keys)
        for target in targets.keys where FileManager.default.fileExists(atPath: TestPaths.packageRoot.appendingPathComponent("Sources/\(target)").path) {
            let closure = Self.closure(of: target, in: targets)
            let imported = try Self.imports(of: target).intersection(ownModules)
            // A module reached only through another's build order compiles until that other changes its own
            // dependencies (RawSimulator imported RawDNG undeclared until RawDNG needed CCrypto).
            #expect(imported.isSubset(of: closure), "\(target) imports \(imported.subtracting(closure).sorted()) without depending on it")
        }
    }

    /// Every module the Swift files of `target` import.
    static func imports(of target: String) throws -> Set<String> {
        let folder = TestPaths.packageRoot.appendingPathComponent("Sources/\(target)")
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: Set<String> = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") || ["internal", "package", "public", "private", "fileprivate"].contains($0) }),
                      index + 1 < words.count else { continue }
                found.insert(String(words[index + 1]))
            }
        }
        return found
    }
}
