import CFuzzDriver
import Foundation

/// The `main` of every fuzz target: `TARGET --make-corpus DIR` writes the target's seeds; anything else goes to
/// libFuzzer (`LLVMFuzzerRunDriver`, since SwiftPM links executables with their own `main`), which calls
/// `testOneInput` for every input.
public enum FuzzMain {
    /// Runs the target and exits.
    public static func run(name: String, seeds: () throws -> [(name: String, bytes: [UInt8])],
                           testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        let arguments = CommandLine.arguments
        if arguments.count >= 2, arguments[1] == "--make-corpus" {
            guard arguments.count == 3 else {
                print("usage: \(name) --make-corpus DIR")
                exit(2)
            }
            do {
                try FileManager.default.createDirectory(atPath: arguments[2], withIntermediateDirectories: true)
                let made = try seeds()
                for seed in made {
                    try Data(seed.bytes).write(to: URL(fileURLWithPath: arguments[2]).appendingPathComponent(seed.name))
                }
                print("\(name): \(made.count) seeds in \(arguments[2])")
                exit(0)
            } catch {
                print("\(name): cannot write the seeds: \(error)")
                exit(1)
            }
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// The input as an array (copied: inputs are small, and the readers under test take arrays or files).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Every error the readers throw is part of their API: one non-empty line. Anything else is a finding.
    public static func checkOneLine(_ error: any Error, _ what: String) {
        let text = String(describing: error)
        precondition(!text.isEmpty, "\(what): an error with an empty message")
        precondition(!text.contains(where: { $0 == "\n" || $0 == "\r" }), "\(what): an error of more than one line: \(text.debugDescription)")
    }
}
