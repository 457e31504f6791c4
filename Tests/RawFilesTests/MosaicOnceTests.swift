import Foundation
import RawCore
import RawDNG
import RawFiles
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
}
