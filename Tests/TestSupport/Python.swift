import Foundation
import Synchronization

/// Runs Python 3 (`python3`, or `$PYTHON`) for checks written with PyPI readers such as rawpy, tifffile
/// and imagecodecs, and reads their answers as JSON.
///
/// ```swift
/// let info = try Python.json(script: """
///     import json, sys, rawpy
///     with rawpy.imread(sys.argv[1]) as raw:
///         print(json.dumps({"width": raw.sizes.raw_width, "height": raw.sizes.raw_height}))
///     """, arguments: [path])
/// #expect(info["width"]?.int == 2376)
/// ```
public enum Python {
    /// The interpreter: `$PYTHON` when set, otherwise `python3`.
    public static var executableName: String {
        ProcessInfo.processInfo.environment["PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    }

    /// Runs `python3 -c SCRIPT ARGUMENTS...` (`sys.argv[1:]` are the arguments) and returns what happened;
    /// a non-zero exit status is not thrown here.
    public static func run(script: String, arguments: [String] = [], timeout: Double = 120) throws -> ProcessResult {
        try ExternalTool(executableName).run(["-c", script] + arguments, timeout: timeout,
                                             environment: ["PYTHONDONTWRITEBYTECODE": "1"])
    }

    /// Runs the script file `scriptFile` with `arguments` and returns what happened.
    public static func run(scriptFile: URL, arguments: [String] = [], timeout: Double = 120) throws -> ProcessResult {
        try ExternalTool(executableName).run([scriptFile.path] + arguments, timeout: timeout,
                                             environment: ["PYTHONDONTWRITEBYTECODE": "1"])
    }

    /// Runs `script` and parses its stdout as one JSON document.
    /// - Throws: ``ExternalToolError/failed(_:)`` when Python exits non-zero (the traceback is in the
    ///   message), ``ExternalToolError/unexpectedOutput(tool:reason:output:)`` when stdout is not JSON.
    public static func json(script: String, arguments: [String] = [], timeout: Double = 120) throws -> JSONValue {
        try parse(run(script: script, arguments: arguments, timeout: timeout))
    }

    /// Runs the script file `scriptFile` and parses its stdout as one JSON document (see ``json(script:arguments:timeout:)``).
    public static func json(scriptFile: URL, arguments: [String] = [], timeout: Double = 120) throws -> JSONValue {
        try parse(run(scriptFile: scriptFile, arguments: arguments, timeout: timeout))
    }

    /// True when `import NAME` works in this Python (the answer is cached per process).
    public static func hasModule(_ name: String) -> Bool {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) else {
            return false // not a module name; never paste anything else into `import`
        }
        if let known = moduleCache.withLock({ $0[name] }) { return known }
        let found = (try? run(script: "import \(name)", timeout: 60).succeeded) ?? false
        moduleCache.withLock { $0[name] = found }
        return found
    }

    private static let moduleCache = Mutex<[String: Bool]>([:])

    private static func parse(_ result: ProcessResult) throws -> JSONValue {
        try result.requireSuccess()
        do {
            return try JSONValue(parsing: result.standardOutput)
        } catch {
            throw ExternalToolError.unexpectedOutput(tool: executableName, reason: "stdout is not one JSON document: \(error)",
                                                     output: result.stdout)
        }
    }
}
