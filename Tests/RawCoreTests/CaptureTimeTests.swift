import Foundation
import RawCore
import Testing

@Suite("CaptureTime and CivilTime")
struct CaptureTimeTests {
    @Test("EXIF text with sub-seconds and an offset parses to the right instant")
    func parse() throws {
        let t = try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: "125", offset: "+01:00")
        // 2026-11-22T13:03:07.125Z
        #expect(t.millisecondsSince1970 == 1_795_352_587_125)
        #expect(t.utcOffsetSeconds == 3600)
        #expect(t.milliseconds == 125)
        #expect(t.exifDateTime == "2026:11:22 14:03:07")
        #expect(t.exifSubSeconds == "125")
        #expect(t.exifOffset == "+01:00")
        #expect(t.description == "2026-11-22T14:03:07.125+01:00")
        #expect(t.date == Date(timeIntervalSince1970: 1_795_352_587.125))
    }

    @Test("Sub-second digits are a decimal fraction: \"5\" is 500 ms, extra digits are cut",
          arguments: [("5", 500), ("05", 50), ("005", 5), ("12", 120), ("999", 999), ("1234567", 123), ("000", 0), (" 7 ", 700), ("", 0)])
    func subSeconds(text: String, milliseconds: Int) throws {
        let t = try CaptureTime(exifDateTime: "2000:01:01 00:00:00", subSeconds: text)
        #expect(t.milliseconds == milliseconds)
        #expect(t.millisecondsSince1970 == 946_684_800_000 + Int64(milliseconds))
    }

    @Test("Offsets east and west, with minutes, and an unknown offset (taken as UTC)")
    func offsets() throws {
        let west = try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: "125", offset: "-03:30")
        #expect(west.utcOffsetSeconds == -12_600)
        #expect(west.millisecondsSince1970 == 1_795_352_587_125 + 16_200_000) // 17:33:07.125Z
        #expect(west.exifOffset == "-03:30")
        #expect(west.description == "2026-11-22T14:03:07.125-03:30")

        let nepal = try CaptureTime(exifDateTime: "2026:01:01 00:10:00", offset: "+05:45")
        #expect(nepal.utcOffsetSeconds == 20_700)
        #expect(nepal.description == "2026-01-01T00:10:00.000+05:45")
        #expect(nepal.date == Date(timeIntervalSince1970: 1_767_225_600 + 600 - 20_700)) // 2025-12-31T18:25Z

        let unknown = try CaptureTime(exifDateTime: "2026:11:22 14:03:07")
        #expect(unknown.utcOffsetSeconds == nil)
        #expect(unknown.exifOffset == nil)
        #expect(unknown.description == "2026-11-22T14:03:07.000")
        #expect(unknown.millisecondsSince1970 == 1_795_356_187_000)
        #expect(try CaptureTime(exifDateTime: "2026:11:22 14:03:07", offset: "").utcOffsetSeconds == nil)

        let minusHalf = try CaptureTime(millisecondsSince1970: 0, utcOffsetSeconds: -1800)
        #expect(minusHalf.exifOffset == "-00:30")
        #expect(minusHalf.exifDateTime == "1969:12:31 23:30:00")
    }

    @Test("Instants before 1970 keep positive millisecond fields")
    func negativeMilliseconds() throws {
        let t = try CaptureTime(millisecondsSince1970: -1, utcOffsetSeconds: nil)
        #expect(t.milliseconds == 999)
        #expect(t.exifDateTime == "1969:12:31 23:59:59")
        #expect(t.exifSubSeconds == "999")
        #expect(t.description == "1969-12-31T23:59:59.999")

        let moon = try CaptureTime(exifDateTime: "1969:07:20 20:17:40", subSeconds: "250", offset: "+00:00")
        #expect(moon.millisecondsSince1970 == -14_182_939_750)
        #expect(moon.milliseconds == 250)
        #expect(moon.exifDateTime == "1969:07:20 20:17:40")

        let first = try CaptureTime(exifDateTime: "0001:01:01 00:00:00")
        #expect(first.millisecondsSince1970 == -62_135_596_800_000)
        #expect(first.exifDateTime == "0001:01:01 00:00:00")
        let last = try CaptureTime(exifDateTime: "9999:12:31 23:59:59", subSeconds: "999")
        #expect(last.millisecondsSince1970 == 253_402_300_799_999)
    }

    @Test("Round trip through the EXIF strings for many random instants and offsets")
    func exifRoundTrip() throws {
        var rng = SeededGenerator(seed: 0x5EED_CA57)
        for _ in 0..<5000 {
            // Years 1...9999, leaving 14 h either side so the local time stays a 4-digit year.
            let ms = Int64.random(in: -62_135_546_400_000 ... 253_402_250_400_000, using: &rng)
            let offset: Int? = Bool.random(using: &rng) ? nil : Int.random(in: -56...56, using: &rng) * 900
            let t = try CaptureTime(millisecondsSince1970: ms, utcOffsetSeconds: offset)
            let back = try CaptureTime(exifDateTime: t.exifDateTime, subSeconds: t.exifSubSeconds, offset: t.exifOffset)
            #expect(back == t, "ms \(ms) offset \(String(describing: offset)): \(t.exifDateTime) \(t.exifSubSeconds) \(t.exifOffset ?? "-")")
            #expect(t.exifSubSeconds.count == 3)
            #expect(t.exifDateTime.count == 19)
        }
    }

    @Test("init(date:) keeps milliseconds and rounds the rest")
    func fromDate() throws {
        let t = try CaptureTime(date: Date(timeIntervalSince1970: 1_700_000_000.1234), utcOffsetSeconds: 7200)
        #expect(t.millisecondsSince1970 == 1_700_000_000_123)
        let u = try CaptureTime(date: Date(timeIntervalSince1970: -0.0006), utcOffsetSeconds: nil)
        #expect(u.millisecondsSince1970 == -1)
        expectInvalid("capture time") { () throws(InvalidValueError) in
            try CaptureTime(date: Date(timeIntervalSince1970: 1e15), utcOffsetSeconds: nil)
        }
        let now = CaptureTime.now()
        #expect(abs(now.date.timeIntervalSinceNow) < 5)
        #expect(now.utcOffsetSeconds.map { $0 % 60 == 0 } == true)
    }

    @Test("Offsets must be whole minutes within ±14 h; instants within years 1...9999")
    func invalidValues() {
        expectInvalid("UTC offset") { () throws(InvalidValueError) in try CaptureTime(millisecondsSince1970: 0, utcOffsetSeconds: 30) }
        expectInvalid("UTC offset") { () throws(InvalidValueError) in try CaptureTime(millisecondsSince1970: 0, utcOffsetSeconds: 14 * 3600 + 60) }
        expectInvalid("UTC offset") { () throws(InvalidValueError) in try CaptureTime(millisecondsSince1970: 0, utcOffsetSeconds: -14 * 3600 - 60) }
        #expect(throws: Never.self) { try CaptureTime(millisecondsSince1970: 0, utcOffsetSeconds: -14 * 3600) }
        expectInvalid("capture time") { () throws(InvalidValueError) in
            try CaptureTime(millisecondsSince1970: -62_135_596_800_001, utcOffsetSeconds: nil)
        }
        expectInvalid("capture time") { () throws(InvalidValueError) in
            try CaptureTime(millisecondsSince1970: 253_402_300_800_000, utcOffsetSeconds: nil)
        }
    }

    @Test("Malformed EXIF text is rejected",
          arguments: ["", "2026:11:22", "2026-11-22 14:03:07", "2026:13:01 00:00:00", "2026:00:10 00:00:00",
                      "2026:11:32 00:00:00", "2026:11:22 24:00:00", "2026:11:22 12:60:00", "2026:11:22 12:00:61",
                      "    :  :     :  :  ", "0000:01:01 00:00:00", "2026:11:22 14:03"])
    func malformedDateTime(text: String) {
        #expect(throws: InvalidValueError.self) { try CaptureTime(exifDateTime: text) }
    }

    @Test("Malformed offsets and sub-seconds are rejected")
    func malformedParts() {
        for offset in ["01:00", "+0100", "+1", "Z", "+15:00", "-14:01"] {
            #expect(throws: InvalidValueError.self, "offset \(offset)") {
                try CaptureTime(exifDateTime: "2026:11:22 14:03:07", offset: offset)
            }
        }
        for sub in ["12a", "-5", "1.5"] {
            expectInvalid("sub-seconds") { () throws(InvalidValueError) in
                try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: sub)
            }
        }
    }

    // Regression: CaptureTime.init(exifDateTime:) used to check the day
    // (regression: the day used to be checked against 1...31 whatever the month, so "2021:02:31" became 2021-03-03)
    @Test("Days that do not exist in their month are rejected",
          arguments: ["2021:02:31 12:00:00", "2021:02:29 12:00:00", "2021:04:31 12:00:00", "1900:02:29 00:00:00"])
    func impossibleDays(text: String) {
        #expect(throws: InvalidValueError.self) { try CaptureTime(exifDateTime: text) }
        #expect(throws: Never.self) { try CaptureTime(exifDateTime: "2024:02:29 12:00:00") } // a real leap day
        #expect(throws: Never.self) { try CaptureTime(exifDateTime: "2000:02:29 12:00:00") }
    }

    // (regression: "+05:75" used to be read as +06:15)
    @Test("Offset minutes above 59 are rejected")
    func offsetMinutesOutOfRange() {
        #expect(throws: InvalidValueError.self) {
            try CaptureTime(exifDateTime: "2026:11:22 14:03:07", offset: "+05:75")
        }
        #expect(throws: InvalidValueError.self) {
            try CaptureTime(exifDateTime: "2026:11:22 14:03:07", offset: "+15:00")
        }
    }

    // (regression: non-ASCII digits such as "٣" or "½" passed Character.isNumber and then trapped in Int(...)!)
    @Test("Non-ASCII digits in sub-seconds are rejected, not a crash")
    func nonASCIISubSeconds() {
        for text in ["٣", "½", "1٣"] {
            #expect(throws: InvalidValueError.self) {
                try CaptureTime(exifDateTime: "2026:11:22 14:03:07", subSeconds: text)
            }
        }
    }

    @Test("CivilTime agrees with Foundation's Gregorian calendar for many random instants")
    func civilTimeAgainstFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var rng = SeededGenerator(seed: 1582)
        // Foundation switches to the Julian calendar before 1582-10-15; compare from 1583 on.
        let low = CivilTime.secondsSince1970(year: 1583, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        let high = CivilTime.secondsSince1970(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        for _ in 0..<3000 {
            let s = Int64.random(in: low...high, using: &rng)
            let c = CivilTime.components(secondsSince1970: s)
            let f = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: Double(s)))
            #expect(c.year == f.year && c.month == f.month && c.day == f.day, "\(s) s")
            #expect(c.hour == f.hour && c.minute == f.minute && c.second == f.second, "\(s) s")
            let back = try #require(calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day,
                                                                       hour: c.hour, minute: c.minute, second: c.second)))
            #expect(Int64(back.timeIntervalSince1970) == s)
        }
    }

    @Test("CivilTime round-trips every day of the proleptic Gregorian calendar 1...9999 at random times")
    func civilTimeRoundTrip() {
        var rng = SeededGenerator(seed: 9999)
        let low = CivilTime.secondsSince1970(year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        #expect(low == -62_135_596_800)
        for _ in 0..<20000 {
            let s = Int64.random(in: low ... 253_402_300_799, using: &rng)
            let c = CivilTime.components(secondsSince1970: s)
            #expect((1...9999).contains(c.year) && (1...12).contains(c.month) && (1...31).contains(c.day))
            #expect(CivilTime.secondsSince1970(year: c.year, month: c.month, day: c.day,
                                               hour: c.hour, minute: c.minute, second: c.second) == s)
        }
        // Known fixed points.
        #expect(CivilTime.secondsSince1970(year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0) == 0)
        #expect(CivilTime.secondsSince1970(year: 2000, month: 3, day: 1, hour: 0, minute: 0, second: 0) == 951_868_800)
        #expect(CivilTime.secondsSince1970(year: 1900, month: 3, day: 1, hour: 0, minute: 0, second: 0) == -2_203_891_200)
        let leap = CivilTime.components(secondsSince1970: 951_868_800 - 1)
        #expect(leap.year == 2000 && leap.month == 2 && leap.day == 29 && leap.hour == 23 && leap.second == 59)
    }
}
