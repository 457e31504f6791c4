import RawCapture
import RawCore
import Testing

/// Burst file name templates.
@Suite struct FilenameTemplateTests {
    static let time = try! CaptureTime(millisecondsSince1970: 1_795_432_205_042, utcOffsetSeconds: 3600) // swiftlint:disable:this force_try

    @Test func fieldsPaddingAndExtension() throws {
        #expect(FilenameTemplate.standard.name(sensor: "phone-wide", sequenceNumber: 42, counter: 1, captureTime: nil)
                == "phone-wide-0042.dng")
        let t = try FilenameTemplate("%Y%m%d-%H%M%S.%L_%s_b%b_%3n_q%q")
        let name = t.name(sensor: "tele", sequenceNumber: 12345, counter: 7, bracket: 2, captureTime: Self.time)
        let c = Self.time.localComponents
        let expected = String(format: "%04d%02d%02d-%02d%02d%02d.042_tele_b2_007_q12345.dng",
                              c.year, c.month, c.day, c.hour, c.minute, c.second)
        #expect(name == expected)
        #expect(try FilenameTemplate("frame-%q.DNG").name(sensor: "x", sequenceNumber: 3, counter: 1, captureTime: nil)
                == "frame-3.DNG")
        #expect(try FilenameTemplate("100%%-%q").name(sensor: "x", sequenceNumber: 3, counter: 1, captureTime: nil)
                == "100%-3.dng")
        // A width shorter than the number never cuts it.
        #expect(try FilenameTemplate("%2q").name(sensor: "x", sequenceNumber: 12345, counter: 1, captureTime: nil)
                == "12345.dng")
    }

    @Test("templates that would leave the directory or collide are refused, naming the problem",
          arguments: [
            ("../%q", "may not contain '/'"),
            ("a/%q", "may not contain '/'"),
            (".hidden-%q", "may not start with '.'"),
            ("%s-%Y", "needs %q (sequence number) or %n (counter)"),
            ("%q-%x", "%x is not a field"),
            ("%q-%", "ends inside a field"),
            ("%20q", "at most 12 digits"),
            ("", "is empty"),
          ])
    func refused(_ text: String, _ message: String) {
        let error = #expect(throws: InvalidValueError.self) { try FilenameTemplate(text) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }
}
