import ArgumentParser
import RawBurst

/// Parses `--compression` values for `convert` and `capture`.
enum DNGCompressionArgument {
    static func parse(_ text: String) throws -> DNGCompression {
        guard let value = DNGCompression(name: text) else {
            throw ValidationError("--compression must be none or lj92, not \"\(text)\"")
        }
        return value
    }
}
