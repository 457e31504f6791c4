import ArgumentParser
import Foundation
import RawBurst

/// `rawburst inspect`: what a raw or DNG file holds.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a raw or DNG file holds: size, CFA, levels, colour, exposure, GPS and IFD structure.",
        discussion: """
        --validate also runs rawburst's structural DNG checks (required tags present and consistent,
        strip and tile byte counts matching the image, data inside the file).

        Exit status: 0 fine, 1 a file could not be read, 3 validation found an error.
        """
    )

    @Argument(help: "Raw or DNG files.")
    var files: [String]

    @Flag(help: "Run the structural DNG checks and exit non-zero on any error.")
    var validate = false

    @Flag(help: "Print JSON on standard output.")
    var json = false

    @Flag(help: "List every tag of every IFD.")
    var tags = false

    func run() throws {
        var reports: [InspectReport] = []
        var unreadable = false
        var invalid = false
        for file in files {
            let inspection = RawInspection.inspect(path: file, validate: validate)
            if inspection.readError != nil { unreadable = true }
            if inspection.problems.contains(where: { $0.severity == .error }) { invalid = true }
            let report = InspectReport(inspection, allTags: tags)
            if json {
                reports.append(report)
            } else {
                if files.count > 1 { print("== \(file)") }
                print(report.text())
                if let error = inspection.readError { Terminal.error("error: \(error)") }
            }
        }
        if json { Terminal.printJSON(files.count == 1 ? AnyEncodable(reports[0]) : AnyEncodable(reports)) }
        if unreadable { throw ExitCode(1) }
        if invalid { throw ExitCode(3) }
    }
}

/// Type-erased `Encodable`, for printing one report or a list with the same code.
struct AnyEncodable: Encodable {
    private let encodeValue: (Encoder) throws -> Void
    init<T: Encodable>(_ value: T) { encodeValue = value.encode }
    func encode(to encoder: Encoder) throws { try encodeValue(encoder) }
}
