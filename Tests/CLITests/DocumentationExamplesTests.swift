import Foundation
import Testing
import TestSupport

/// The DocC articles (Sources/RawBurst/RawBurst.docc) show whole programs of the Examples/ package, which make test
/// builds and runs (scripts/examples.sh): each article's Swift listing must be its example's source, byte for byte, so
/// that the code a reader copies is code that compiles and runs.
@Suite struct DocumentationExamplesTests {
    static let catalog = TestPaths.packageRoot.appendingPathComponent("Sources/RawBurst/RawBurst.docc")
    static let examples = TestPaths.packageRoot.appendingPathComponent("Examples/Sources")

    /// The article of each example.
    static let articles = [
        "ConvertingRawsToDNG": "ConvertToDNG", "DevelopingPictures": "DevelopPicture", "AnalysingFrames": "AnalyseFrame",
        "WritingDNGsFromBuffers": "BufferToDNG", "CapturingBursts": "CaptureBurst",
    ]

    /// The text between the article's first ```swift line and the fence that closes it.
    static func listing(_ article: String) throws -> String? {
        let lines = try String(contentsOf: catalog.appendingPathComponent("\(article).md"), encoding: .utf8)
            .components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "```swift"),
              let end = lines[(start + 1)...].firstIndex(of: "```") else { return nil }
        return lines[(start + 1)..<end].joined(separator: "\n")
    }

    @Test(arguments: articles.sorted { $0.key < $1.key })
    func theArticleShowsItsExampleAsItIs(article: String, example: String) throws {
        let source = try String(contentsOf: Self.examples.appendingPathComponent("\(example)/main.swift"), encoding: .utf8)
        let shown = try #require(try Self.listing(article), "\(article).md has no ```swift listing")
        #expect(shown == source.trimmingCharacters(in: .newlines), "\(article).md's listing is not Examples/Sources/\(example)/main.swift")
        #expect(source.trimmingCharacters(in: .newlines).components(separatedBy: "\n").count <= 30, "\(example) is over 30 lines")
    }

    @Test func everyExampleHasAnArticleAndTheLandingPageListsIt() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(Self.articles.values), "\(folders)")
        let landing = try String(contentsOf: Self.catalog.appendingPathComponent("RawBurst.md"), encoding: .utf8)
        for article in Self.articles.keys { #expect(landing.contains("<doc:\(article)>"), "RawBurst.md does not list \(article)") }
    }
}
