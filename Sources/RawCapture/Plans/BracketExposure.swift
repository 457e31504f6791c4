import Foundation
import RawSources

extension BracketPlan {
    /// The settings of `step` for trigger `index`: focus kept from the first autofocus unless the plan varies it,
    /// and an exposure bracket stepped exactly from the `metered` exposure within `capabilities`' ranges.
    func settings(of step: (settings: CaptureSettings, bracketIndex: Int), base: CaptureSettings,
                  metered: (iso: Double, shutter: Double)?, index: Int, capabilities: SourceCapabilities) -> CaptureSettings {
        var settings = step.settings
        // A plan that does not set the focus keeps what autofocus found first (for the first frame, or for the
        // metering), as a camera locks focus for a bracket.
        if (index > 0 || metered != nil) && !variesFocus { settings.autoFocusLock = true }
        // An exposure bracket steps exactly from the metered exposure: shutter × 2^EV (the ISO takes over where
        // the shutter range ends), as a camera's auto exposure bracketing does.
        if let metered, variesExposureCompensation {
            (settings.iso, settings.shutter) = Self.bracketed(metered, ev: settings.exposureCompensation,
                                                              isoFixed: base.iso != nil, shutterFixed: base.shutter != nil,
                                                              capabilities: capabilities)
        }
        return settings
    }

    /// The exposure `ev` stops from `metered`, within the source's ranges: a set ISO stays and the shutter
    /// moves; a set shutter stays and the ISO moves; with both automatic, the shutter first, then the ISO.
    static func bracketed(_ metered: (iso: Double, shutter: Double), ev: Double, isoFixed: Bool, shutterFixed: Bool,
                          capabilities: SourceCapabilities) -> (iso: Double, shutter: Double) {
        let wanted = metered.iso * metered.shutter * pow(2, ev)
        let shutterRange = capabilities.shutterRange, isoRange = capabilities.isoRange
        func clamp(_ v: Double, _ r: ClosedRange<Double>) -> Double { min(max(v, r.lowerBound), r.upperBound) }
        if shutterFixed { return (clamp((wanted / metered.shutter).rounded(), isoRange), metered.shutter) }
        let shutter = clamp(wanted / metered.iso, shutterRange)
        if isoFixed { return (metered.iso, shutter) }
        return (clamp((wanted / shutter).rounded(), isoRange), shutter)
    }
}
