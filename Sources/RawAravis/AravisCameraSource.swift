import Glibc
import CAravis
import RawCameras
import RawCore
import RawSources
import Synchronization

/// A GenICam camera (GigE Vision, USB3 Vision) through Aravis, as a frame source on the camera's own clock.
///
/// The camera runs in continuous acquisition from the first `nextFrame`; each call pops the next buffer Aravis
/// filled (waiting up to a few frame intervals at a time, and failing the burst after ``Options/stallSeconds``
/// without any buffer). The stream's buffers are the frame pool's own slots (`SlotBorrowingSource`): the camera's
/// bytes arrive in a slot and are unpacked where they lie, so a frame reaches the DNG writer without a copy; a frame
/// with no free slot for it is copied out of its buffer for the engine to count, and the buffer queued again. Frame ids become sequence numbers through `FrameIDExtender`: every gap is a
/// `FrameLoss(.camera)` per missing id, and a damaged buffer (missing packets, timeout, wrong size...) is a loss with
/// its reason, never written. Timestamps are `CLOCK_MONOTONIC` taken when the buffer is popped.
///
/// ISO maps to Gain through the camera profile's gain table (``Options/profile``); without one, as
/// ISO = 100 × 10^(gain / 20) (gain in dB, SFNC's unit: gain 0 is ISO 100, +6 dB doubles it).
///
/// ``Options/trigger`` decides what starts each exposure: free-running (the camera's clock), a software trigger fired
/// for each frame asked for (so a frame is exposed with the settings configured before it), or a hardware line.
/// ``Options/binning`` sets BinningHorizontal/BinningVertical; the camera's BalanceRatio goes into each DNG as
/// ``CameraWhiteBalance`` says.
///
/// A camera in a monochrome format (PFNC `Mono8/10/12/16`, `Mono10p/12p`, GigE Vision `Mono10Packed/12Packed`) makes
/// monochrome frames (`CFALayout.monochrome`, no colour calibration): its BalanceRatio, a profile's colour matrices
/// and a white balance setting do not apply and are left out (``isMonochrome``), never refused.
public final class AravisCameraSource: FrameSource {
    /// How the camera is opened and run.
    public struct Options: Sendable {
        /// Aravis device id (nil: the first camera found).
        public var id: String?
        /// Pixel format to set (nil: the camera's current one). Must be a Bayer or monochrome GenICam format.
        public var pixelFormat: PixelFormat?
        /// AcquisitionFrameRate to set (nil: the camera's own).
        public var frameRate: Double?
        /// The region of interest to set (nil: the whole sensor). Offsets and sizes even, so the mosaic keeps
        /// the format's colour order (any, in a monochrome format).
        public var region: CameraRegion?
        /// Buffers queued on the stream when they are Aravis's own memory (the copy path); lent pool slots are
        /// counted by the burst's memory plan instead.
        public var buffers = 8
        /// Seconds without any buffer after which the camera is taken as stopped.
        public var stallSeconds = 5.0
        /// Buffers arriving damaged one after the other, none whole, after which the burst fails (a `--frames N`
        /// burst counts whole frames: on a link that damages every frame it would never end).
        public var maximumDamagedInARow = 100
        /// The camera profile: colour calibration for the DNGs, Gain → ISO table, levels, make and model in place of
        /// the camera's (nil: none; the DNG writer then writes its stand-in matrix marked uncalibrated, ISO follows
        /// the dB rule, black 0 and white 2^bits − 1).
        public var profile: CameraProfile?
        /// The profile's colour calibration, nil without a profile.
        public var calibration: ColorCalibration? { profile?.calibration }
        /// What starts each exposure (default: free-running).
        public var trigger: CameraTrigger = .freeRunning
        /// Binning to set (nil: none, 1x1, on a camera that can bin). The region is then counted in binned pixels.
        public var binning: CameraBinning?
        /// Whether the camera applies its BalanceRatio to the Bayer data it sends (decides each DNG's AsShotNeutral).
        public var whiteBalance: CameraWhiteBalance.Handling = .asShotNeutral
        /// Creates options.
        public init(id: String? = nil, pixelFormat: PixelFormat? = nil, frameRate: Double? = nil,
                    profile: CameraProfile? = nil) {
            self.id = id
            self.pixelFormat = pixelFormat
            self.frameRate = frameRate
            self.profile = profile
        }
    }

    /// The opened camera.
    public let camera: AravisCamera
    /// The pixel format frames arrive in.
    public let pixelFormat: PixelFormat
    /// True when the camera sends a monochrome format: its frames have one unfiltered colour and no colour calibration,
    /// and white balance does not apply.
    public var isMonochrome: Bool { pixelFormat.isMonochrome }
    public let capabilities: SourceCapabilities
    public var samplesPerFrame: Int { capabilities.width * capabilities.height }
    public var pacing: FramePacing { .source }
    /// The stream's socket buffer, and — when frames cannot arrive in the pool's slots (``slotsToBorrow(poolSlots:)``
    /// is 0) — the ``Options/buffers`` buffers of Aravis's own memory they arrive in instead; the burst's memory
    /// budget counts them.
    public var workingMemoryBytes: Int {
        stream.socketBufferBytes + (placement == nil ? max(2, options.buffers) * stream.payloadBytes : 0)
    }
    public private(set) var hasEnded = false

    let options: Options
    let cfa: CFALayout
    let gainBounds: ClosedRange<Double>?
    /// The step between the camera's Gain values (nil: any value), so an ISO is set as the nearest step.
    let gainStep: Double?
    let exposureBounds: ClosedRange<Double>?
    let stream: AravisStream
    let identity: (make: String, model: String, serial: String)
    /// Gain ↔ ISO: the profile's table, or the dB rule (`GainTable/sfnc`).
    public let gainTable: GainTable
    /// Black and white level of the frames (the profile's, or 0 and 2^bits − 1).
    let levels: (black: Double, white: UInt32)
    /// GigE Vision's 16-bit block ids skip 0 on wrap; USB3 Vision's are 64-bit and include 0 (no wrap in practice).
    var ids: FrameIDExtender
    var losses: [FrameLoss] = []
    /// The stream's counters when the burst took its last frame (`finish`), nil before.
    private var finalCounters: AravisStreamCounters?
    var applied: AppliedSettings
    /// The camera's timestamp of the last buffer popped (ns of its clock), to see it restart.
    var lastCameraTimestamp: UInt64?
    /// Set by `interrupt()` from any thread: the wait for the next buffer ends.
    let interrupted = Atomic<Bool>(false)
    /// Buffers of Aravis's own memory were queued (the copy path), on the sensor thread.
    private var ownBuffersQueued = false
    /// Where a frame lies in a lent slot, or nil when frames cannot arrive in slots (then they are copied).
    let placement: SlotPlacement?
    /// The binning set (nil: the camera cannot bin), and the camera's white balance (nil: it has no BalanceRatio).
    public internal(set) var binning: CameraBinning?
    public internal(set) var whiteBalance: CameraWhiteBalance?
    /// The calibration each frame carries: ``Options/calibration`` with the camera's AsShotNeutral.
    var frameCalibration: ColorCalibration?
    /// What starts each exposure.
    public var trigger: CameraTrigger { options.trigger }
    /// With the software trigger: the camera says when it waits for one (AcquisitionStatus FrameTriggerWait).
    let reportsTriggerWait: Bool

    /// Opens the camera, sets its pixel format and frame rate, and creates its stream (acquisition starts with the
    /// first frame asked for).
    public init(options: Options) throws(AravisError) {
        self.options = options
        camera = try AravisCamera(id: options.id)
        ids = camera.isGigEVision ? FrameIDExtender() : FrameIDExtender(modulus: 1 << 48, zeroIsSkipped: false)
        let available = try camera.availablePixelFormats()
        if let wanted = options.pixelFormat {
            guard let code = wanted.pfncCode, available.contains(where: { $0.code == code }) else {
                throw AravisError(.unsupportedFormat, feature: "PixelFormat", "the camera does not offer \(wanted.name) (it offers: "
                                  + available.map(\.name).joined(separator: ", ") + ")")
            }
            try camera.setPixelFormat(code: code)
        }
        let code = try camera.pixelFormatCode()
        guard let format = PixelFormat(pfncCode: code) else {
            let name = available.first { $0.code == code }?.name ?? String(code, radix: 16)
            throw AravisError(.unsupportedFormat, feature: "PixelFormat", "\(name) is not a raw Bayer or monochrome format "
                              + "rawburst can write (choose one with --pixel-format: "
                              + available.filter { PixelFormat(pfncCode: $0.code) != nil }.map(\.name).joined(separator: ", ") + ")")
        }
        pixelFormat = format
        cfa = format.cfa
        let sensor = try Self.setUpBinning(camera, options.binning, format: format)
        binning = sensor.binning
        let wanted = options.region ?? CameraRegion(x: 0, y: 0, width: sensor.width, height: sensor.height)
        try wanted.check(sensorWidth: sensor.width, sensorHeight: sensor.height, binning: sensor.binning,
                         monochrome: format.isMonochrome)
        try camera.setRegion(x: wanted.x, y: wanted.y, width: wanted.width, height: wanted.height)
        let region = try camera.region()
        guard CameraRegion(x: region.x, y: region.y, width: region.width, height: region.height) == wanted else {
            throw AravisError(.outOfRange, feature: "Width/Height/OffsetX/OffsetY",
                              "the camera set the region \(region.width)x\(region.height)+\(region.x)+\(region.y) for "
                              + "\(wanted) (its steps differ): ask for that one")
        }
        if let fps = options.frameRate {
            guard let bounds = camera.frameRateBounds() else {
                throw AravisError(.missingFeature, feature: "AcquisitionFrameRate", "the camera has no AcquisitionFrameRate for --fps")
            }
            guard bounds.contains(fps) else {
                throw AravisError(.outOfRange, feature: "AcquisitionFrameRate",
                                  "--fps \(fps) is outside the camera's AcquisitionFrameRate \(bounds.lowerBound)...\(bounds.upperBound)")
            }
            try camera.setFrameRate(fps)
        }
        gainBounds = camera.gainBounds()
        gainStep = camera.gainIncrement()
        exposureBounds = camera.exposureTimeBounds()
        identity = (options.profile?.make ?? camera.vendor, options.profile?.model ?? camera.model, camera.serialNumber)
        gainTable = options.profile?.gainTable ?? .sfnc
        levels = try Self.levels(options.profile, format: format)
        if let table = gainTable.gainRange, let bounds = gainBounds, !table.overlaps(bounds) {
            throw AravisError(.outOfRange, feature: "Gain", "the profile's gain table (\(gainTable)) does not meet the camera's "
                              + "Gain \(SettingText.number(bounds.lowerBound))...\(SettingText.number(bounds.upperBound))")
        }
        // One name for the frames, their losses, the journal and the files (`camera-0001.dng`); the vendor and model
        // are in each DNG's metadata.
        capabilities = Self.capabilities(name: Self.sensorName, width: region.width, height: region.height,
                                         format: format, frameRate: camera.frameRate() ?? 1000, gain: gainBounds,
                                         table: gainTable, exposure: exposureBounds)
        applied = Self.applied(gain: camera.gain(), table: gainTable, exposureMicroseconds: camera.exposureTime())
        let payload = try camera.payloadBytes()
        stream = try AravisStream(camera: camera, payload: payload, transport: .init())
        placement = SlotPlacement(format: format, width: region.width, height: region.height, payload: payload)
        try camera.setTrigger(options.trigger)
        reportsTriggerWait = options.trigger == .software && camera.reportsFrameTriggerWait()
        readWhiteBalance()
    }

    deinit {
        // The in-process fake may be waiting on its stream thread for a trigger that will not come now.
        camera.releaseFakeTriggerWait()
    }

    /// What Aravis's stream has counted so far (read it after the burst: the counters are not synchronised with the
    /// sensor thread).
    public var streamCounters: AravisStreamCounters { finalCounters ?? stream.counters() }

    /// Stops the acquisition when the burst has taken its last frame, and keeps the stream's counters as they were
    /// then (what came after — the writers draining, development — is not the burst's).
    public func finish() {
        guard finalCounters == nil else { return }
        stream.stop()
        finalCounters = stream.counters()
    }

    /// Ends a wait for the next buffer within 0.2 s (the burst is stopping).
    public func interrupt() {
        interrupted.store(true, ordering: .relaxed)
    }

    /// The sensor name of a camera's frames (file prefix, ledger, journal).
    public static let sensorName = "camera"

    /// The frames' black and white level: the profile's, fitted to the pixel format's bits, else 0 and 2^bits − 1.
    static func levels(_ profile: CameraProfile?, format: PixelFormat) throws(AravisError) -> (black: Double, white: UInt32) {
        let bits = max(8, format.bitsPerSample)
        do throws(InvalidValueError) {
            let given = try profile?.levels(bitsPerSample: bits)
            return (given?.black ?? 0, given?.white ?? UInt32((1 << bits) - 1))
        } catch {
            throw AravisError(.outOfRange, feature: "PixelFormat", "profile \(error.field): \(error.reason) (\(format.name))")
        }
    }

    public var resolvedSettings: AppliedSettings? { applied }

    /// Refuses ISO and shutter the camera cannot take (naming its feature, Gain or ExposureTime), then checks the rest
    /// against the capabilities.
    public func check(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        if let iso = settings.iso {
            guard let bounds = gainBounds else { throw CaptureSettingsError(setting: "ISO", "the camera has no Gain feature") }
            guard let gain = gainTable.gain(iso: iso) else {
                guard gainTable.isoRange != nil else {
                    throw CaptureSettingsError(setting: "ISO", "ISO \(SettingText.number(iso)) has no Gain (not a positive number)")
                }
                throw CaptureSettingsError(setting: "ISO", "ISO \(SettingText.number(iso)) is outside the profile's gain table "
                                           + "(\(gainTable)); the camera's Gain is "
                                           + "\(SettingText.number(bounds.lowerBound))...\(SettingText.number(bounds.upperBound))")
            }
            guard bounds.contains(gain) else {
                throw CaptureSettingsError(setting: "ISO", "ISO \(SettingText.number(iso)) needs Gain \(SettingText.number(gain))"
                                           + (gainTable.unit == .decibels ? " dB, " : ", ")
                                           + "outside the camera's Gain \(SettingText.number(bounds.lowerBound))...\(SettingText.number(bounds.upperBound))")
            }
        }
        if let shutter = settings.shutter {
            guard let bounds = exposureBounds else {
                throw CaptureSettingsError(setting: "shutter", "the camera has no ExposureTime feature")
            }
            guard bounds.contains(shutter * 1e6) else {
                throw CaptureSettingsError(setting: "shutter", "\(SettingText.number(shutter * 1e6)) µs is outside the camera's "
                                           + "ExposureTime \(SettingText.number(bounds.lowerBound))...\(SettingText.number(bounds.upperBound)) µs")
            }
        }
        try checkWhiteBalance(settings.whiteBalance)
        _ = try settings.validated(for: capabilities)
    }

    public func configure(_ settings: CaptureSettings) throws(CaptureSettingsError) {
        try check(settings)
        do throws(AravisError) {
            if let iso = settings.iso, let gain = gainTable.gain(iso: iso) {
                try camera.setGain(Self.settableGain(gain, step: gainStep, bounds: gainBounds))
            }
            if let shutter = settings.shutter { try camera.setExposureTime(microseconds: shutter * 1e6) }
        } catch {
            throw CaptureSettingsError(setting: error.feature ?? "camera", error.message)
        }
        applied = Self.applied(gain: camera.gain(), table: gainTable, exposureMicroseconds: camera.exposureTime())
        readWhiteBalance()
    }

    /// The Gain value to set for `gain`: the nearest of the camera's steps (minimum + k × `step`) within its bounds.
    /// Aravis writes an integer GainRaw cut towards zero, so ISO 190 through a table asking GainRaw 3.6 became GainRaw
    /// 3 (ISO 175); the nearest step is 4 (ISO 200), and the frames record the ISO of the Gain the camera then reports.
    static func settableGain(_ gain: Double, step: Double?, bounds: ClosedRange<Double>?) -> Double {
        guard let step, step > 0, gain.isFinite else { return gain }
        let base = bounds?.lowerBound ?? 0
        var value = base + ((gain - base) / step).rounded() * step
        guard let bounds else { return value }
        if value > bounds.upperBound { value -= step }
        return max(bounds.lowerBound, value)
    }

    /// Not called for a source on its own clock (the engine never skips its frames); returns the next number.
    public func skipFrame() -> UInt64 { ids.nextSequenceNumber }

    public func takeLosses() -> [FrameLoss] {
        defer { losses = [] }
        return losses
    }

    /// The next whole frame unpacked into `storage` (a copy out of the stream's buffer, which is queued again): the
    /// path of a frame the engine has no slot for, or of a camera whose buffers are not slots.
    public func nextFrame(into storage: PixelStorage) throws(FrameSourceError) -> CapturedFrame {
        if !stream.isLending && !ownBuffersQueued {
            stream.pushAllocated(count: max(2, options.buffers))
            ownBuffersQueued = true
        }
        let (buffer, whole) = try nextWhole()
        defer { stream.push(buffer) }
        do throws(PixelFormatError) {
            try pixelFormat.unpack(UnsafeRawBufferPointer(start: whole.data, count: whole.bytes), width: capabilities.width,
                                   height: capabilities.height,
                                   into: UnsafeMutableBufferPointer(start: storage.baseAddress, count: storage.count))
        } catch {
            throw FrameSourceError("frame id \(whole.frameID): \(error.message)")
        }
        return try frame(whole, storage: storage)
    }
}
