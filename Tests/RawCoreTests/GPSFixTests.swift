import RawCore
import Testing

@Suite("GPSFix")
struct GPSFixTests {
    @Test("Coordinates on the globe are accepted and kept")
    func valid() throws {
        let fix = try GPSFix(latitude: 48.858222, longitude: 2.2945, altitude: 35.5, timestampMilliseconds: 1_795_352_587_125)
        #expect(fix.latitude == 48.858222 && fix.longitude == 2.2945 && fix.altitude == 35.5)
        #expect(fix.description == "48.858222°N 2.2945°E 35.5 m")
        let south = try GPSFix(latitude: -33.856784, longitude: -151.215297)
        #expect(south.altitude == nil && south.timestampMilliseconds == nil)
        #expect(south.description == "33.856784°S 151.215297°W")
        for (lat, lon) in [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)] {
            #expect(throws: Never.self) { try GPSFix(latitude: lat, longitude: lon) }
        }
        #expect(throws: Never.self) { try GPSFix(latitude: 0, longitude: 0, altitude: -99_999) }
    }

    @Test("Out-of-range and non-finite values are rejected")
    func invalid() {
        for lat in [90.000001, -90.5, 123, .nan, .infinity] {
            expectInvalid("GPS latitude") { () throws(InvalidValueError) in try GPSFix(latitude: lat, longitude: 0) }
        }
        for lon in [180.000001, -181, .nan, -.infinity] {
            expectInvalid("GPS longitude") { () throws(InvalidValueError) in try GPSFix(latitude: 0, longitude: lon) }
        }
        for alt in [100_000, -100_000, .nan, .infinity] {
            expectInvalid("GPS altitude") { () throws(InvalidValueError) in try GPSFix(latitude: 0, longitude: 0, altitude: alt) }
        }
    }

    @Test("Degrees, minutes and seconds keep sub-arcsecond precision: 48.858222° is 48° 51' 29.5992\"")
    func dms() {
        let eiffel = GPSFix.degreesMinutesSeconds(48.858222)
        #expect(eiffel.degrees == 48 && eiffel.minutes == 51)
        #expect(close(eiffel.seconds, 29.5992, 1e-6), "\(eiffel.seconds)")
        let west = GPSFix.degreesMinutesSeconds(-2.294481)
        #expect(west.degrees == 2 && west.minutes == 17)
        #expect(close(west.seconds, 40.1316, 1e-6), "\(west.seconds)")
        let sydney = GPSFix.degreesMinutesSeconds(-33.856784)
        #expect(sydney.degrees == 33 && sydney.minutes == 51)
        #expect(close(sydney.seconds, 24.4224, 1e-6), "\(sydney.seconds)")
        let half = GPSFix.degreesMinutesSeconds(0.5)
        #expect(half.degrees == 0 && half.minutes == 30 && half.seconds == 0)
        let pole = GPSFix.degreesMinutesSeconds(90)
        #expect(pole.degrees == 90 && pole.minutes == 0 && pole.seconds == 0)
    }

    @Test("Values a hair below a whole minute or degree carry over instead of printing 60 seconds")
    func dmsCarry() {
        let almost = GPSFix.degreesMinutesSeconds(10.9999999999)
        #expect(almost.degrees == 11 && almost.minutes == 0 && almost.seconds == 0)
        let minute = GPSFix.degreesMinutesSeconds(1 + 5.0 / 60 - 1e-12)
        #expect(minute.degrees == 1 && minute.minutes == 5 && minute.seconds < 1e-6)
    }

    @Test("DMS recomposes to the angle within 1e-9 degrees for many random angles")
    func dmsRandom() {
        var rng = SeededGenerator(seed: 4858)
        for _ in 0..<20000 {
            let angle = Double.random(in: -180...180, using: &rng)
            let d = GPSFix.degreesMinutesSeconds(angle)
            #expect(d.degrees == d.degrees.rounded() && d.minutes == d.minutes.rounded())
            #expect((0..<60).contains(d.minutes) && d.seconds >= 0 && d.seconds < 60, "\(angle): \(d)")
            #expect(close(d.degrees + d.minutes / 60 + d.seconds / 3600, abs(angle), 1e-9), "\(angle): \(d)")
        }
    }

    @Test("The GPS time stamp splits into UTC fields with fractional seconds")
    func utcComponents() throws {
        let fix = try GPSFix(latitude: 1, longitude: 2, timestampMilliseconds: 1_795_352_587_125)
        let c = try #require(fix.utcComponents)
        #expect(c.year == 2026 && c.month == 11 && c.day == 22 && c.hour == 13 && c.minute == 3)
        #expect(close(c.second, 7.125))
        let before = try #require(try GPSFix(latitude: 0, longitude: 0, timestampMilliseconds: -500).utcComponents)
        #expect(before.year == 1969 && before.month == 12 && before.day == 31 && before.hour == 23 && before.minute == 59)
        #expect(close(before.second, 59.5))
        #expect(try GPSFix(latitude: 0, longitude: 0).utcComponents == nil)
    }
}
