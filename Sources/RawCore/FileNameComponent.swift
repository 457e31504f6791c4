/// Text from input (a profile's name, a reel, a template's literal text) that becomes part of a file name.
///
/// Such text must keep the file inside its folder and visible: no `/`, no NUL or other control character, no
/// leading `.` (hidden files, `.` and `..`), and a length that leaves room in the 255-byte file names of Linux for
/// the rest of the name (sequence numbers, suffixes, the writer's temporary name).
public enum FileNameComponent {
    /// The most UTF-8 bytes a name taken from input may have.
    public static let maximumBytes = 64

    /// The most UTF-8 bytes of a file name (NAME_MAX on Linux file systems).
    public static let maximumFileNameBytes = 255

    /// Throws unless `text` is fit to be part of a file name; `field` names it in the error (e.g. `profile name`).
    /// The text is quoted with escapes in the message, so the message stays one line whatever it holds.
    public static func check(_ text: String, field: String, maximumBytes: Int = maximumBytes) throws(InvalidValueError) {
        let quoted = String(reflecting: text)
        try require(!text.isEmpty, field, "must not be empty")
        try require(text.utf8.count <= maximumBytes, field, "\(quoted) is longer than \(maximumBytes) bytes")
        try require(!text.contains("/"), field, "\(quoted) may not contain '/': files stay in the output folder")
        try require(!text.hasPrefix("."), field, "\(quoted) may not start with '.'")
        try require(!containsControlCharacter(text), field, "\(quoted) may not contain control characters")
    }

    /// Whether `text` holds a NUL, another C0 control character, DEL or a C1 control character.
    public static func containsControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
