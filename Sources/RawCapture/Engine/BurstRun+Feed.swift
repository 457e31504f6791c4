import RawCore
import RawSources

/// What a viewfinder adds to the sensor loop: settings changed while the burst runs (`BurstSettingsFeed`), and the
/// start of a burst that waits for its trigger (`Configuration.waitForTrigger`).
extension BurstRun {
    /// Before a trigger: the feed's pending settings applied to every sensor (a pair checks both before changing either)
    /// and the outcome reported to the feed. With a bracketing plan every change is refused: the plan sets the settings.
    func applyFedSettings() {
        guard let feed = configuration.settingsFeed, let settings = feed.pendingSettings() else { return }
        if configuration.plan != nil {
            feed.settingsApplied(settings, refusal: CaptureSettingsError(
                setting: "settings", "the bracketing plan sets the settings of every frame; they cannot be changed during it"))
            return
        }
        do throws(CaptureSettingsError) {
            try session.source.configure(settings)
            feed.settingsApplied(settings, refusal: nil)
        } catch {
            feed.settingsApplied(settings, refusal: error)
        }
    }

    /// At the trigger: frames held beyond the pre-record's window are not wanted (with `waitForTrigger` and no
    /// pre-record, the last untriggered trigger's frames still wait in the pool); they are dropped as outside it.
    func dropBeyondPreRecord() {
        dropHeldFrames(keeping: configuration.preRecordFrames * session.source.framesPerTrigger, flush: false)
    }

    /// Drops the oldest frames held in the pool as `outside-pre-record` until at most `kept` wait there (`flush`: as
    /// `drop` takes it, whether the journal is flushed for each).
    func dropHeldFrames(keeping kept: Int, flush: Bool) {
        while pool.statistics.queued > kept, let (slot, old) = pool.reclaimOldestFull() {
            drop(old.frame, .outsidePreRecord, flush: flush)
            pool.abandon(slot)
        }
    }
}
