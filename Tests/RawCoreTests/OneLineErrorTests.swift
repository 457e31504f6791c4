import RawCore
import Testing

/// Every error's description is one line whatever input it quotes (a fuzz finding of issue #17: a white balance
/// value holding a newline made a two-line message).
@Suite struct OneLineErrorTests {
    enum ExampleDomain {}

    @Test func controlCharactersAreEscaped() {
        #expect("plain text, no escapes".oneLine == "plain text, no escapes")
        #expect("a\nb\rc\td".oneLine == #"a\nb\rc\td"#)
        #expect("bell\u{7}esc\u{1B}[2Jdel\u{7F}c1\u{85}ls\u{2028}".oneLine == #"bell\u{7}esc\u{1B}[2Jdel\u{7F}c1\u{85}ls\u{2028}"#)
        #expect("ünïcödé ✓ 漢字".oneLine == "ünïcödé ✓ 漢字")
    }

    @Test func everyErrorShapeStaysOnOneLine() {
        let invalid = InvalidValueError("white balance", "\"06K5506\n{\"presets\": []}\" is not a temperature")
        #expect(invalid.description == #"invalid white balance: "06K5506\n{"presets": []}" is not a temperature"#)
        let message = MessageError<ExampleDomain>("line one\nline two")
        #expect(message.description == #"line one\nline two"#)
        let file = FileError(path: "/tmp/evil\nname.dng", "does not exist")
        #expect(!file.description.contains("\n") && file.description.hasPrefix(#"/tmp/evil\nname.dng: "#))
    }
}
