import Foundation
import RawCore
import RawDevelop
import RawImageIO
import TestSupport
import Testing

/// A picture whose directory cannot be flushed after the rename is whole under its name, but not durable: the writer
/// says so with a typed error instead of reporting success (issue #17, directory-flush failures).
@Suite("ImageFileWriter when the disk fails")
struct ImageFileWriterFaultTests {
    /// The error writing `image` as a PNG at `path` throws, or nil when it succeeds.
    static func error(writing image: DevelopedImage, to path: String) -> DevelopError? {
        do throws(DevelopError) {
            try ImageFileWriter(format: .png).write(image, to: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("a failed directory sync (or directory open) is a .notDurable error naming the file; the file is whole",
          arguments: [FileSystemCall.syncDirectory, .openDirectory])
    func directoryFlushFails(call: FileSystemCall) throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("out.png").path
        let image = try EncoderFixtures.gradient()
        let (thrown, calls) = FileSystemFaults.injecting(directory: tmp.path, failing: .first(call, pathContaining: "out.png")) {
            Self.error(writing: image, to: path)
        }
        #expect(calls.contains { $0.kind == call }, "\(calls)")
        let error = try #require(thrown, "a picture whose directory could not be flushed was reported as written")
        #expect(error.kind == .notDurable)
        #expect(error.path == path)
        #expect(error.description.hasPrefix("\(path): written, but not durable: \(tmp.path): "), "\(error)")
        #expect(!error.description.contains("\n"))
        // Not rolled back: the file is complete under its name, and no temporary file is left.
        #expect(try EncoderFixtures.names(tmp.path) == ["out.png"])
        let read = try ImageFileReader.read(path: path)
        #expect(read.width == image.width && read.height == image.height)
    }

    @Test("a failure before the rename stays a .failed error, with nothing under the name")
    func writeFails() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("out.png").path
        let image = try EncoderFixtures.gradient()
        let (thrown, _) = FileSystemFaults.injecting(directory: tmp.path, failing: .first(.sync, pathContaining: "out.png")) {
            Self.error(writing: image, to: path)
        }
        let error = try #require(thrown)
        #expect(error.kind == .failed && error.path == path, "\(error)")
        #expect(try EncoderFixtures.names(tmp.path).isEmpty)
    }
}
