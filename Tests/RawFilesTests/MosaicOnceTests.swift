import Foundation
import RawCore
import RawDNG
import RawFiles
import RawTIFF
import TestSupport
import Testing

/// Issue #18 item 8: a read holds the mosaic once — LibRaw's unpacked buffer becomes the frame's storage instead of
/// being copied, and an uncompressed DNG's strips go from the file into the frame without the file's bytes beside them.
@Suite struct MosaicOnceTests {
    @Test("a LibRaw read adopts LibRaw's buffer, and its samples stay readable after the reader is gone",
          .enabled(if: TestPaths.sharedSample("canon-powershot-g2.crw") != nil))
    func adoptsLibRawBuffer() throws {
        let path = try #require(TestPaths.sharedSample("canon-powershot-g2.crw")).path
        let frame = try RawFileReader().read(path: path).frame
        #expect(frame.storage.isAdopted)
        #expect(frame.width == 2376 && frame.height == 1728 && frame.storage.count == 2376 * 1728)
        // The samples are LibRaw's own: the same as a second read (a fresh handle, a fresh buffer).
        let again = try RawFileReader().read(path: path).frame
        #expect(again.storage.baseAddress != frame.storage.baseAddress)
        #expect(Array(frame.storage.buffer) == Array(again.storage.buffer))
    }

    @Test("an uncompressed DNG's strips are read from the file into a storage of its own, the same samples as LibRaw's")
    func uncompressedStripsFromTheFile() throws {
        let tmp = try TemporaryDirectory()
        let image = try SyntheticRaw.image(width: 1200, height: 1000)
        let path = tmp.file("plain.dng").path
        try DNGWriter().write(image, to: path) // uncompressed, 1 MiB strips: three of them
        var digest: [UInt8]?
        let direct = try RawFileReader().read(path: path, verifiedDigest: &digest)
        let viaLibRaw = try RawFileReader(readsUncompressedDNGDirectly: false).read(path: path)
        #expect(!direct.frame.storage.isAdopted && viaLibRaw.frame.storage.isAdopted)
        #expect(Array(direct.frame.storage.buffer) == Array(image.frame.storage.buffer))
        #expect(Array(viaLibRaw.frame.storage.buffer) == Array(image.frame.storage.buffer))
        // The digest the reader checked is handed out, and it is the samples' digest.
        #expect(digest == NewRawImageDigest.digest(of: image.frame, threads: 2))
    }

    @Test("the digest check a read leaves running passes on sound samples and fails on damaged ones, after the read")
    func digestCheckAfterTheRead() throws {
        let tmp = try TemporaryDirectory()
        let image = try SyntheticRaw.image(width: 1200, height: 1000)
        let path = tmp.file("plain.dng").path
        try DNGWriter().write(image, to: path)
        var check: RawDigestCheck?
        let sound = try RawFileReader().read(path: path, digestCheck: &check)
        let started = try #require(check)
        #expect(try started.wait() == NewRawImageDigest.digest(of: image.frame, threads: 2))
        #expect(try started.wait() == started.stored)   // a second wait returns at once
        #expect(Array(sound.frame.storage.buffer) == Array(image.frame.storage.buffer))

        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let strip = try #require(try TIFFStructure(bytes: bytes).rawDirectory?.integers(TIFFTag.stripOffsets)?.first)
        bytes[strip + 99] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let damaged = try RawFileReader().read(path: path, digestCheck: &check)
        #expect(damaged.frame.width == 1200)
        let damagedCheck = try #require(check)
        do throws(RawReadError) {
            try damagedCheck.wait()
            Issue.record("the damaged samples passed the check")
        } catch {
            #expect(error.kind == .corrupt && error.detail.contains("NewRawImageDigest"), "\(error)")
        }
        // Without a deferred check the read itself fails, as before.
        #expect(throws: RawReadError.self) { try RawFileReader().read(path: path) }
        // A reader that does not verify digests starts no check.
        _ = try RawFileReader(verifiesRawImageDigest: false).read(path: path, digestCheck: &check)
        #expect(check == nil)
    }
}
