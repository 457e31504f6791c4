import RawDNG

/// How a burst's memory budget is spent: everything the process allocates for the burst is counted before the
/// frame pool gets what is left. Computed before anything is allocated, so a budget too small is refused with
/// the sizes, and the process's peak RSS stays within `budget + 64 MiB` (`residentLimitBytes`).
///
/// | part | size |
/// |---|---|
/// | sources | their `workingMemoryBytes` (the simulator: one float plane of a frame and a window of rows; a replay: its decoded files) |
/// | spare frames | one frame buffer per sensor, for frames that find no slot (counted, then dropped) |
/// | writers | per writer: 8 MiB (strip buffer, thumbnail, TIFF directories) + its JPEG preview, if any |
/// | developers | with `--develop`, per writer: `BurstDevelopment.workingBytes` (only if the pool still gets its slots) |
/// | analysers | with `--analyze`, per writer: the analyser's `workingBytes` (its luma grid and gradient field) |
/// | process | 32 MiB: the runtime, libraries and thread stacks |
/// | pool | the rest, in whole slots (at most `maximumSlots`); a `SlotBorrowingSource` (a camera, or the simulated sensor rendering ahead of its clock) keeps `lentSlots` of them queued for its device or render thread |
public struct BurstMemoryPlan: Sendable, Hashable, Codable {
    /// The budget.
    public let budgetBytes: Int
    /// Bytes of one slot (one frame of the largest sensor).
    public let slotBytes: Int
    /// Slots in the pool.
    public let slots: Int
    /// The sources' working memory.
    public let sourceBytes: Int
    /// The spare frame buffers.
    public let spareBytes: Int
    /// All writers' working memory.
    public let writerBytes: Int
    /// The process's own share.
    public let processBytes: Int
    /// All writers' developers (0 when nothing is developed during the burst).
    public let developerBytes: Int
    /// All writers' analysers (0 without `--analyze`).
    public let analyzerBytes: Int
    /// Whether the writers develop frames during the burst (the budget had room for them); when false, a burst
    /// with a development develops everything afterwards.
    public let developsDuringBurst: Bool
    /// Slots of the pool lent to a `SlotBorrowingSource` for its device to fill (0 for other sources): they are the
    /// device's buffers, so the frames arrive in the pool without a copy.
    public var lentSlots = 0

    /// Bytes of the pool.
    public var poolBytes: Int { slots * slotBytes }
    /// Everything counted.
    public var totalBytes: Int {
        poolBytes + sourceBytes + spareBytes + writerBytes + developerBytes + analyzerBytes + processBytes
    }

    /// The most resident memory a burst with this plan may reach: the budget and 64 MiB of slack for the
    /// allocator and the runtime.
    public var residentLimitBytes: Int { budgetBytes + (64 << 20) }

    /// Says by how much `peakResidentBytes` (the process's peak RSS during the burst) went over
    /// ``residentLimitBytes``, or nil when it stayed within: a plan that missed something must be seen, never hidden.
    public func overrun(peakResidentBytes: Int) -> String? {
        guard peakResidentBytes > residentLimitBytes else { return nil }
        let mib = FramePoolError.mebibytes
        return "peak RSS \(mib(peakResidentBytes)) went over the memory limit of \(mib(residentLimitBytes)) "
            + "(--memory-budget \(mib(budgetBytes)) + 64 MiB) by \(mib(peakResidentBytes - residentLimitBytes))"
    }

    /// The process's share of every budget.
    public static let processBytes = 32 << 20

    /// Working memory of one DNG writer for frames of `samples` samples with `options`.
    public static func writerBytes(options: DNGWriter.Options) -> Int {
        let preview = options.previewLongEdge.map { $0 * $0 * 3 * 2 } ?? 0
        return (8 << 20) + preview
    }

    /// Bytes the budget sets aside before the pool for a burst from `source` with `configuration`: the sources'
    /// working memory, a spare frame per sensor, the writers and the process.
    public static func reservedBytes(for source: BurstSource, configuration: BurstSession.Configuration,
                                     developing: Bool = false) -> Int {
        source.workingMemoryBytes + source.framesPerTrigger * source.samplesPerSlot * MemoryLayout<UInt16>.stride
            + configuration.writers * writerBytes(options: configuration.dngOptions) + processBytes
            + analyzerBytes(source: source, configuration: configuration)
            + (developing ? developerBytes(source: source, configuration: configuration) : 0)
    }

    /// All writers' developers for `configuration`'s development (0 without one).
    public static func developerBytes(source: BurstSource, configuration: BurstSession.Configuration) -> Int {
        guard let development = configuration.development else { return 0 }
        return configuration.writers * development.workingBytes(samplesPerFrame: source.samplesPerSlot)
    }

    /// All writers' analysers for `configuration`'s analysis (0 without one).
    public static func analyzerBytes(source: BurstSource, configuration: BurstSession.Configuration) -> Int {
        guard let analysis = configuration.analysis else { return 0 }
        return configuration.writers * analysis.workingBytes(samplesPerFrame: source.samplesPerSlot)
    }

    /// The smallest budget that gives a burst from `source` with `configuration` (whose own budget is ignored)
    /// a pool of `slots` slots.
    public static func budget(forSlots slots: Int, source: BurstSource, configuration: BurstSession.Configuration) -> Int {
        reservedBytes(for: source, configuration: configuration) + slots * source.samplesPerSlot * MemoryLayout<UInt16>.stride
    }

    /// The most slots a pool gets, whatever the budget (more than this many frames waiting means the writers are
    /// hopelessly behind: the governor and the overflow policy act long before).
    public static let maximumSlots = 4096

    /// The plan for a burst from `source` with `configuration`; throws, naming the sizes, when the pool would
    /// get fewer slots than the burst needs (two per sensor, or a pre-record's frames and one more).
    public static func make(for source: BurstSource, configuration: BurstSession.Configuration) throws(FramePoolError)
        -> BurstMemoryPlan {
        let slotBytes = source.samplesPerSlot * MemoryLayout<UInt16>.stride
        let sourceBytes = source.workingMemoryBytes
        let spareBytes = source.framesPerTrigger * slotBytes
        let writerBytes = configuration.writers * writerBytes(options: configuration.dngOptions)
        // A source that would borrow no slot (its frames cannot lie in one) copies instead.
        let borrower = source.borrower.flatMap { $0.slotsToBorrow(poolSlots: maximumSlots) > 0 ? $0 : nil }
        // A borrowing source keeps the slots it requires queued for its device (a camera two; a sensor rendering ahead
        // none: with a tight budget it makes fewer frames ahead), besides the engine's own.
        let engineNeeds = max(2, configuration.preRecordFrames + 1) * source.framesPerTrigger
        let leastLent = min(borrower?.slotsRequired ?? 0, borrower?.slotsToBorrow(poolSlots: maximumSlots) ?? 0)
        let needed = engineNeeds + leastLent
        // Developers during the burst only if the pool still gets the slots it needs; else develop afterwards.
        var developing = configuration.development != nil
        var reserved = reservedBytes(for: source, configuration: configuration, developing: developing)
        if developing && (configuration.memoryBudget - reserved) / max(1, slotBytes) < needed {
            developing = false
            reserved = reservedBytes(for: source, configuration: configuration)
        }
        let available = configuration.memoryBudget - reserved
        let fitting = slotBytes > 0 && available > 0 ? available / slotBytes : 0
        // Never more than `maximumSlots`: with tiny frames a budget would otherwise make hundreds of thousands, each
        // with bookkeeping the plan does not count. (A short burst keeps the slots its budget holds: the governor
        // reads a pool sized to the burst's last frame as one about to overflow.)
        let slots = fitting < needed ? fitting : min(fitting, max(needed, maximumSlots))
        guard slots >= needed else {
            let mib = FramePoolError.mebibytes
            let what = configuration.preRecordFrames > 0
                ? "a pre-record of \(configuration.preRecordFrames) frame\(configuration.preRecordFrames == 1 ? "" : "s") needs \(needed) slots"
                : "a burst needs at least \(needed) slots"
            throw FramePoolError("a memory budget of \(mib(configuration.memoryBudget)) holds \(slots) frame slot\(slots == 1 ? "" : "s") "
                + "of \(mib(slotBytes)) after \(mib(reserved)) for the sensor (\(mib(sourceBytes))), spare frames, "
                + "writers\(configuration.analysis == nil ? "" : ", analysers") and the process; "
                + "\(what): give --memory-budget \(mib(reserved + needed * slotBytes)) or more")
        }
        var plan = BurstMemoryPlan(budgetBytes: configuration.memoryBudget, slotBytes: slotBytes, slots: slots,
                                   sourceBytes: sourceBytes, spareBytes: spareBytes, writerBytes: writerBytes,
                                   processBytes: processBytes,
                                   developerBytes: developing ? developerBytes(source: source, configuration: configuration) : 0,
                                   analyzerBytes: analyzerBytes(source: source, configuration: configuration),
                                   developsDuringBurst: developing)
        if let borrower {
            plan.lentSlots = max(0, min(max(leastLent, borrower.slotsToBorrow(poolSlots: slots)), slots - engineNeeds))
        }
        return plan
    }
}
