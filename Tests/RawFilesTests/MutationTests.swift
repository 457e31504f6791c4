import Foundation
import RawCore
import RawDNG
import RawFiles
import RawTIFF
import TestSupport
import Testing

/// Issue #17, "What to build" 5: a deterministic mutation test. A few hundred damaged variants of the writer's
/// DNGs (uncompressed and lossless JPEG) and of the TIFF-based samples go through the TIFF structure reader,
/// the DNG validator and the raw reader's own paths, in process. Each must end with a result or a one-line
/// error, within the file's copy budget and quickly; a trap would end the test run.
@Suite("mutated TIFF and DNG files (issue #17)")
struct MutationTests {
    /// Mutants per seed: 80, or `RAWBURST_MUTANTS` for a longer local run (and `RAWBURST_MUTATION_SEED` for
    /// other mutants).
    static let mutantsPerSeed = ProcessInfo.processInfo.environment["RAWBURST_MUTANTS"].flatMap { Int($0) } ?? 80
    /// The first generator seed.
    static let generatorSeed = ProcessInfo.processInfo.environment["RAWBURST_MUTATION_SEED"].flatMap { UInt64($0) } ?? 0x17
    /// Seconds any one mutant may take through all three readers (a slow machine's allowance, not a benchmark).
    static let secondsPerMutant = 5.0

    /// The seeds: two writer DNGs and the TIFF-based samples found (the Magic Lantern DNG, the Kodak KDC).
    private func seeds(_ tmp: TemporaryDirectory) throws -> [(name: String, bytes: [UInt8], readRaw: Bool)] {
        var seeds: [(String, [UInt8], Bool)] = []
        seeds.append(("uncompressed", try HostileDNG.written(in: tmp, width: 128, height: 96).bytes, true))
        seeds.append(("lj92", try HostileDNG.written(in: tmp, lj92: true, width: 128, height: 96).bytes, true))
        for name in ["canon-550d-magiclantern.dng", "kodak-dc120.kdc"] {
            if let url = TestPaths.sharedSample(name) {
                // Large samples go through the structure reader and the validator only: LibRaw is slow on them.
                seeds.append((name, [UInt8](try Data(contentsOf: url)), false))
            }
        }
        return seeds
    }

    @Test("a few hundred mutants: a result or one line, never a trap, copies within the file's budget")
    func mutants() throws {
        let tmp = try TemporaryDirectory()
        var outcomes: [String: Int] = [:]
        for (seedIndex, seed) in try seeds(tmp).enumerated() {
            let mutator = TIFFMutator(seed: seed.bytes)
            #expect(mutator.entryPositions.count > 10, "\(seed.name): the mutator found no directories")
            var rng = SplitMix64(seed: Self.generatorSeed &+ UInt64(seedIndex))
            for index in 0..<Self.mutantsPerSeed {
                let mutant = mutator.mutate(using: &rng)
                let label = "\(seed.name) #\(index) \(mutant.description)"
                let start = ContinuousClock.now
                outcomes[try check(mutant, label: label, readRaw: seed.readRaw, tmp: tmp), default: 0] += 1
                let elapsed = ContinuousClock.now - start
                #expect(elapsed < .seconds(Self.secondsPerMutant), "\(label): took \(elapsed)")
            }
        }
        // The mutants really exercise both outcomes.
        #expect(outcomes["parsed", default: 0] > Self.mutantsPerSeed / 2 && outcomes["refused", default: 0] > Self.mutantsPerSeed / 8,
                "\(outcomes)")
    }

    /// Runs one mutant through the readers; returns whether the structure was parsed or refused.
    private func check(_ mutant: TIFFMutator.Mutant, label: String, readRaw: Bool, tmp: TemporaryDirectory) throws -> String {
        var outcome = "parsed"
        do {
            let tiff = try TIFFStructure(bytes: mutant.bytes)
            #expect(tiff.copiedBytes <= mutant.bytes.count + TIFFStructure.copySlackBytes, "\(label)")
            #expect(tiff.problems.allSatisfy { !$0.contains("\n") }, "\(label)")
            if tiff.isDNG {
                let problems = DNGValidator.validate(tiff)
                #expect(problems.allSatisfy { !$0.description.contains("\n") }, "\(label)")
            }
            _ = tiff.dataSegments
        } catch {
            outcome = "refused"
            #expect(!error.description.contains("\n") && !error.description.isEmpty, "\(label): \(error)")
        }
        guard readRaw else { return outcome }
        let path = tmp.file("mutant.dng").path
        try Data(mutant.bytes).write(to: URL(fileURLWithPath: path))
        do {
            let image = try RawFileReader().read(path: path)
            #expect(image.frame.width > 0 && image.frame.storage.count == image.frame.width * image.frame.height, "\(label)")
        } catch {
            #expect(!error.description.contains("\n") && error.description.hasPrefix(path + ": "), "\(label): \(error)")
        }
        return outcome
    }
}
