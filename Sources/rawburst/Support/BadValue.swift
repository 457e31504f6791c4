import ArgumentParser

/// A value or a combination of options the command refuses: `rawburst COMMAND: MESSAGE` on one line and exit
/// status 2, as the commands always reported bad settings. Thrown by `transform:` closures and `validate()`
/// (argument-parser keeps it as the cause of its own error) and by `run()`; `RawburstCommand.main()` prints it.
struct BadValue: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }

    /// `T(argument: text)`, or a `BadValue` with `message` (the command's own wording, kept from before typing).
    static func parse<T: ExpressibleByArgument>(_ text: String, as type: T.Type = T.self,
                                                otherwise message: @autoclosure () -> String) throws -> T {
        guard let value = T(argument: text) else { throw BadValue(message()) }
        return value
    }

    /// `body()`, with any error it throws reported as a `BadValue` of `prefix` and the error's text.
    static func wrapping<T>(_ prefix: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as BadValue { throw error } catch { throw BadValue(prefix + "\(error)") }
    }

    /// The `BadValue` inside `error` (argument-parser wraps a transform's or validate()'s error with the command
    /// stack), and the name of the command it came from.
    static func unwrap(_ error: Error) -> (value: BadValue, command: String?)? {
        if let value = error as? BadValue { return (value, nil) }
        let (found, command) = search(error)
        return found.map { ($0, command) }
    }

    /// The name of the subcommand argument-parser was parsing when it made `error` (its command stack), if any.
    static func commandName(in error: Error) -> String? { search(error).command }

    /// The first `BadValue` and the last command of the first command stack inside `error`'s stored values.
    private static func search(_ error: Error) -> (value: BadValue?, command: String?) {
        var found: BadValue?
        var command: String?
        func walk(_ subject: Any, depth: Int) {
            guard depth < 8, found == nil || command == nil else { return }
            for child in Mirror(reflecting: subject).children {
                if found == nil, let value = child.value as? BadValue { found = value; continue }
                if command == nil, let stack = child.value as? [ParsableCommand.Type], let last = stack.last {
                    command = last.configuration.commandName ?? last._commandName
                    continue
                }
                walk(child.value, depth: depth + 1)
            }
        }
        walk(error, depth: 0)
        return (found, command)
    }
}
