import Foundation

/// Whether the external checkers a test needs are installed, for Swift Testing's `.enabled(if:)` traits:
///
/// ```swift
/// @Test(.enabled(if: ToolAvailability.has("exiftool"))) func dngPassesExifTool() throws { ... }
/// ```
///
/// When the environment variable `RAWBURST_REQUIRE_TOOLS` is `1` (as `make test` and CI set it, after
/// `make deps` installed every checker), `has` always answers true: a missing tool then fails the test
/// that needs it with ``ExternalToolError/notFound(_:)`` instead of skipping it silently.
public enum ToolAvailability {
    /// True when missing tools must fail tests rather than skip them (`RAWBURST_REQUIRE_TOOLS=1`).
    public static var toolsRequired: Bool {
        ProcessInfo.processInfo.environment["RAWBURST_REQUIRE_TOOLS"] == "1"
    }

    /// True when the executable `name` is on `PATH`, or when tools are required (see above).
    public static func has(_ name: String) -> Bool {
        toolsRequired || isInstalled(name)
    }

    /// True when every one of the executables is on `PATH`, or when tools are required.
    public static func has(_ names: String...) -> Bool {
        toolsRequired || names.allSatisfy(isInstalled)
    }

    /// True when the executable `name` is on `PATH`, whatever `RAWBURST_REQUIRE_TOOLS` says.
    public static func isInstalled(_ name: String) -> Bool {
        ExternalTool.locate(name) != nil
    }

    /// True when Python can import every one of `modules` (e.g. `"rawpy"`), or when tools are required.
    public static func hasPythonModules(_ modules: String...) -> Bool {
        toolsRequired || modules.allSatisfy(Python.hasModule)
    }
}
