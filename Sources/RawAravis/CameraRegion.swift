/// A camera's region of interest (GenICam OffsetX, OffsetY, Width, Height), in sensor pixels.
public struct CameraRegion: Sendable, Hashable, CustomStringConvertible {
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int

    /// A region `width` x `height` at (`x`, `y`).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Parses `WxH+X+Y` (or `WxH`, at the top-left corner), e.g. `256x192+64+32`; nil when it is not of that form.
    public init?(parsing text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 3 else { return nil }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else { return nil }
        let x = parts.count == 3 ? Int(parts[1]) : 0
        let y = parts.count == 3 ? Int(parts[2]) : 0
        guard let x, let y else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }

    /// `256x192+64+32`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// Refuses a region outside a sensor of `sensorWidth` x `sensorHeight`, empty, or at odd offsets or sizes (a
    /// Bayer mosaic's colour order would shift with an odd offset; a period needs even sizes) unless the sensor is
    /// `monochrome` (no mosaic: any offset and size). With `binning`, the sizes are the binned sensor's (the region is
    /// counted in binned pixels).
    public func check(sensorWidth: Int, sensorHeight: Int, binning: CameraBinning? = nil,
                      monochrome: Bool = false) throws(AravisError) {
        guard width > 0, height > 0, x >= 0, y >= 0, width <= sensorWidth - x, height <= sensorHeight - y else {
            let binned = binning.flatMap { $0.isNone ? nil : " (binned \($0))" } ?? ""
            throw AravisError(.outOfRange, feature: "Width/Height/OffsetX/OffsetY",
                              "the region \(self) is not inside the \(sensorWidth)x\(sensorHeight) sensor\(binned)")
        }
        guard monochrome || [x, y, width, height].allSatisfy({ $0 % 2 == 0 }) else {
            throw AravisError(.outOfRange, feature: "Width/Height/OffsetX/OffsetY",
                              "the region \(self) needs even offsets and sizes (the Bayer mosaic's colour order)")
        }
    }
}
