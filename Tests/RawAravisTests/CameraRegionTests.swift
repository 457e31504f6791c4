import RawAravis
import Testing

/// `--crop`'s region: parsing `WxH+X+Y` and the checks made before a camera is asked.
@Suite struct CameraRegionTests {
    @Test("WxH+X+Y and WxH parse; anything else does not")
    func parsing() {
        #expect(CameraRegion(parsing: "256x192+64+32") == CameraRegion(x: 64, y: 32, width: 256, height: 192))
        #expect(CameraRegion(parsing: "256X192") == CameraRegion(x: 0, y: 0, width: 256, height: 192))
        for bad in ["", "256", "256x", "x192", "256x192+64", "256x192+64+32+1", "256x192+a+0", "256*192"] {
            #expect(CameraRegion(parsing: bad) == nil, "\(bad)")
        }
        #expect(CameraRegion(x: 64, y: 32, width: 256, height: 192).description == "256x192+64+32")
    }

    @Test("a region must lie inside the sensor, be non-empty, and have even offsets and sizes")
    func checks() throws {
        try CameraRegion(x: 0, y: 0, width: 2048, height: 2048).check(sensorWidth: 2048, sensorHeight: 2048)
        try CameraRegion(x: 1024, y: 512, width: 1024, height: 1536).check(sensorWidth: 2048, sensorHeight: 2048)
        let refused = [CameraRegion(x: 2, y: 0, width: 2048, height: 2), CameraRegion(x: 0, y: 0, width: 0, height: 2),
                       CameraRegion(x: -2, y: 0, width: 2, height: 2), CameraRegion(x: 1, y: 0, width: 2, height: 2),
                       CameraRegion(x: 0, y: 0, width: 3, height: 2),
                       // Sums that would overflow are refused, not trapped on.
                       CameraRegion(x: 2, y: 0, width: Int.max - 1, height: 2),
                       CameraRegion(x: 0, y: Int.max - 1, width: 2, height: Int.max - 1)]
        for region in refused {
            #expect(throws: AravisError.self, "\(region)") { try region.check(sensorWidth: 2048, sensorHeight: 2048) }
        }
    }
}
