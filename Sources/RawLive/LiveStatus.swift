import RawSources

/// What the page shows besides the picture, sent as JSON a few times a second: the burst's figures, the controls'
/// state and what the source can do. `LiveServer` adds its own part (clients, delivered previews, latency).
public struct LiveStatus: Sendable, Codable, Hashable {
    /// The burst (the recording, or the frames shown while waiting for the trigger).
    public var burst: Burst
    /// The settings asked for and the locks.
    public var controls: Controls
    /// What the source can do (for the controls' ranges).
    public var source: Source

    /// The burst's figures.
    public struct Burst: Sendable, Codable, Hashable {
        /// `waiting` (for the trigger), `recording`, `paused` or `ended`.
        public var state: String
        /// Whether a recording is under way (`recording` or `paused`): before the trigger frames are only shown, and
        /// `fps` is the rate they are made for the preview.
        public var recording: Bool
        /// The recording's number (`rawburst live` counts takes from 1) and its folder.
        public var take: Int
        public var folder: String
        /// Frames asked for per sensor, and produced (shown frames included), written and dropped so far (all
        /// sensors). `dropped` counts the recording's drops only: the frames let go while they were only shown (before
        /// the trigger) are not the recording's, and are 0 here (the take's manifest still counts every one).
        public var frames: Int
        public var produced: Int
        public var written: Int
        public var dropped: Int
        /// The recording's drops by typed reason (`pool-full`, `late`, `write-failed` ...); empty before the trigger.
        public var droppedByReason: [String: Int]
        /// Frames made per second over the last second (while not recording: the preview's rate).
        public var fps: Double
        /// Frames waiting for a writer, and the pool's slots.
        public var queued: Int
        public var slots: Int
        /// The pool's fill (0...1), one sample per quarter second, the last 120.
        public var occupancy: [Double]
        /// Bytes written per second over the last second, in MB/s.
        public var megabytesPerSecond: Double
        /// The governor's level (`normal`, `no-previews` ...), and whether previews are thinned because of it.
        public var governor: String
        public var previewsThinned: Bool
        /// Seconds until the pool is full at the current rate, nil while it is not filling.
        public var secondsUntilFull: Double?

        /// The burst's figures.
        public init(state: String, recording: Bool, take: Int, folder: String, frames: Int, produced: Int, written: Int,
                    dropped: Int, droppedByReason: [String: Int], fps: Double, queued: Int, slots: Int, occupancy: [Double],
                    megabytesPerSecond: Double, governor: String, previewsThinned: Bool, secondsUntilFull: Double?) {
            self.state = state
            self.recording = recording
            self.take = take
            self.folder = folder
            self.frames = frames
            self.produced = produced
            self.written = written
            self.dropped = dropped
            self.droppedByReason = droppedByReason
            self.fps = fps
            self.queued = queued
            self.slots = slots
            self.occupancy = occupancy
            self.megabytesPerSecond = megabytesPerSecond
            self.governor = governor
            self.previewsThinned = previewsThinned
            self.secondsUntilFull = secondsUntilFull
        }
    }

    /// The controls' state.
    public struct Controls: Sendable, Codable, Hashable {
        /// The settings the page asked for (nil fields automatic).
        public var settings: CaptureSettings
        /// `auto` when nothing is set by hand, else `manual`.
        public var mode: String
        public var autoExposureLock: Bool
        public var autoFocusLock: Bool
        /// The lighting presets by name.
        public var presets: [String]
        /// The last refusal in one line, nil when the last command was done.
        public var lastRefusal: String?

        /// The controls' state.
        public init(settings: CaptureSettings, mode: String, autoExposureLock: Bool, autoFocusLock: Bool,
                    presets: [String], lastRefusal: String?) {
            self.settings = settings
            self.mode = mode
            self.autoExposureLock = autoExposureLock
            self.autoFocusLock = autoFocusLock
            self.presets = presets
            self.lastRefusal = lastRefusal
        }
    }

    /// The source's ranges.
    public struct Source: Sendable, Codable, Hashable {
        /// Sensor names, in trigger order.
        public var sensors: [String]
        public var isoMinimum: Double
        public var isoMaximum: Double
        public var shutterMinimum: Double
        public var shutterMaximum: Double
        /// The first lens's closest focus (m) and widest and narrowest f-numbers.
        public var minimumFocusMetres: Double
        public var apertureMinimum: Double
        public var apertureMaximum: Double
        /// Whether settings can change while it runs (a replay or a stream cannot).
        public var adjustable: Bool

        /// The source's ranges.
        public init(sensors: [String], isoMinimum: Double, isoMaximum: Double, shutterMinimum: Double, shutterMaximum: Double,
                    minimumFocusMetres: Double, apertureMinimum: Double, apertureMaximum: Double, adjustable: Bool) {
            self.sensors = sensors
            self.isoMinimum = isoMinimum
            self.isoMaximum = isoMaximum
            self.shutterMinimum = shutterMinimum
            self.shutterMaximum = shutterMaximum
            self.minimumFocusMetres = minimumFocusMetres
            self.apertureMinimum = apertureMinimum
            self.apertureMaximum = apertureMaximum
            self.adjustable = adjustable
        }
    }

    /// A status.
    public init(burst: Burst, controls: Controls, source: Source) {
        self.burst = burst
        self.controls = controls
        self.source = source
    }
}
