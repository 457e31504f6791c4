import RawCore
import RawDNG

extension BurstTimePlan {
    /// A compression, whether the optional work runs, what limits the burst with them, and why.
    struct Choice {
        let option: Option?
        let optionalWork: Bool
        let bottleneck: BurstGovernor.Bottleneck
        let reason: String
        /// The option keeps up with room to spare (`BurstTimePlan.keepsUp`).
        var fits = false
    }

    /// How much of the CPU left after the headroom (`usable`, ms per trigger), of 90 % of the disk, and of 85 % of the
    /// frame interval on the sensor thread an option takes.
    struct Load {
        let cpu: Double
        let disk: Double
        let sensor: Double
        var worst: Double { max(cpu, disk, sensor) }
        var bottleneck: BurstGovernor.Bottleneck {
            sensor >= max(cpu, disk) ? .sensor : disk > cpu ? .disk : .cpu
        }
        var fits: Bool { cpu <= 1 && disk <= 1 && sensor <= 1 }
    }

    static func load(_ o: Option, work: Bool, usable: Double?, diskMBps: Double?, sensor: Double = 0) -> Load {
        let cpu = usable.map { (work ? o.cpuMilliseconds : o.cpuMillisecondsShed) / max($0, 1e-9) } ?? 0
        let disk = diskMBps.flatMap { d in o.neededMBps.map { $0 / max(d * 0.9, 1e-9) } } ?? 0
        return Load(cpu: cpu, disk: disk, sensor: sensor)
    }

    /// The rule of the type's documentation, applied to `options`.
    static func choose(_ options: [Option], inputs: Inputs, budget usable: Double?) -> Choice {
        let disk = inputs.diskBytesPerSecond.map { $0 / 1e6 }
        // The sensor thread's share of 85 % of the interval (the same for every option).
        let serial = inputs.sensorSerialMilliseconds ?? inputs.sensorMilliseconds ?? 0
        let sensor = inputs.fps.map { serial / (0.85 * 1000 / $0) } ?? 0
        func load(_ o: Option, work: Bool, usable: Double?, diskMBps: Double?) -> Load {
            Self.load(o, work: work, usable: usable, diskMBps: diskMBps, sensor: sensor)
        }
        func describe(_ o: Option, _ work: Bool) -> String {
            var text = "\(SettingText.number(round(work ? o.cpuMilliseconds : o.cpuMillisecondsShed))) ms of CPU per trigger"
            if let usable {
                text += " of the \(SettingText.number(round(usable))) ms the cores have (\(words(headroom: inputs.headroom)) kept free)"
            }
            if let need = o.neededMBps {
                text += ", \(SettingText.number(need)) MB/s" + (disk.map { " of the disk's \(SettingText.number(round($0))) MB/s" } ?? "")
            }
            return text + (work ? "" : " without previews and digests")
        }
        if let requested = inputs.requested {
            guard let o = options.first(where: { $0.compression == requested }) else {
                return Choice(option: nil, optionalWork: true, bottleneck: .cpu,
                              reason: "asked for with --compression \(requested.rawValue)")
            }
            // The optional work runs when the CPU has room for it, and is shed from the first frame when it has not.
            let work = load(o, work: true, usable: usable, diskMBps: disk).cpu <= 1
            let l = load(o, work: work, usable: usable, diskMBps: disk)
            return Choice(option: o, optionalWork: work, bottleneck: l.bottleneck,
                          reason: "asked for with --compression \(requested.rawValue): " + describe(o, work)
                              + (l.fits ? "" : " — more than this machine sustains; the governor steps in"), fits: l.fits)
        }
        guard usable != nil else {
            // Free-running: the fastest to write is the one whose slower side (CPU on all cores, or disk) is quickest.
            func slower(_ o: Option) -> Double { let s = freeRunningSeconds(o, inputs); return max(s.cpu, s.disk) }
            let fastest = options.min { slower($0) < slower($1) }
            let sides = fastest.map { freeRunningSeconds($0, inputs) }
            return Choice(option: fastest, optionalWork: true,
                          bottleneck: sides.map { $0.disk > $0.cpu ? .disk : .cpu } ?? .cpu,
                          reason: "free-running burst: \(fastest?.compression.rawValue ?? "none") is the fastest to write here",
                          fits: fastest != nil)
        }
        let byBytes = options.sorted { $0.bytes < $1.bytes }
        for work in [true, false] {
            if let o = byBytes.first(where: { load($0, work: work, usable: usable, diskMBps: disk).fits }) {
                let l = load(o, work: work, usable: usable, diskMBps: disk)
                return Choice(option: o, optionalWork: work, bottleneck: l.bottleneck,
                              reason: "\(o.compression.rawValue) keeps up: " + describe(o, work), fits: true)
            }
        }
        let candidates = byBytes.flatMap { o in [true, false].map { (o, $0) } }
        let best = candidates.min { a, b in
            load(a.0, work: a.1, usable: usable, diskMBps: disk).worst < load(b.0, work: b.1, usable: usable, diskMBps: disk).worst
        }
        guard let (o, work) = best else {
            return Choice(option: nil, optionalWork: true, bottleneck: .cpu, reason: "no compression could be measured")
        }
        let l = load(o, work: work, usable: usable, diskMBps: disk)
        let limit = switch l.bottleneck {
        case .disk: "the disk limits the burst and the governor steps in"
        case .cpu: "the CPU limits the burst and the governor steps in"
        case .sensor: "the sensor needs \(SettingText.number(round(serial))) ms a frame, more than the rate allows: frames "
            + "are dropped late and the governor lowers the rate"
        }
        return Choice(option: o, optionalWork: work, bottleneck: l.bottleneck,
                      reason: "nothing keeps up at this rate; \(o.compression.rawValue) comes closest: " + describe(o, work)
                          + " — " + limit)
    }

    /// Seconds a free-running frame takes with option `o` on each side: its CPU spread over the cores, its bytes on
    /// the disk (0 when the disk's bandwidth is unknown).
    private static func freeRunningSeconds(_ o: Option, _ inputs: Inputs) -> (cpu: Double, disk: Double) {
        (o.cpuMilliseconds / 1000 / Double(max(1, inputs.cores)),
         inputs.diskBytesPerSecond.map { Double(o.bytes) / max($0, 1) } ?? 0)
    }
}
