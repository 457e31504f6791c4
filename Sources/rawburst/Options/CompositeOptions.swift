import ArgumentParser
import RawBurst

/// How two frames taken together become one picture: the same flags in `develop` and `capture`.
/// `develop`'s former spellings (--stack, --split, --border, --border-color) still work, hidden from --help.
/// Every value is checked whether or not --composite is given (without it they are unused).
struct CompositeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Composite pairs of frames (two sensors): stacked or pip. The other composite options are "
                               + "checked even without it, and used only with it."))
    var composite: String?

    @Option(help: ArgumentHelp("Stacked composite: vertical (top/bottom) or horizontal (side by side) (default vertical).", valueName: "direction"))
    var compositeStack: String?

    @Option(help: ArgumentHelp("Stacked composite: the first frame's share, 50/50, 60/40 or 70/30 (default 50/50).", valueName: "split"))
    var compositeSplit: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Composite border in pixels (default 0: none).", valueName: "pixels"))
    var compositeBorder: Int?

    @Option(help: ArgumentHelp("Composite border colour: white, black, grey or #RRGGBB (default white).", valueName: "colour"))
    var compositeBorderColor: String?

    @Option(help: "Picture-in-picture corner: top-left, top-right, bottom-left, bottom-right.")
    var pipCorner: String = "bottom-right"

    @Option(parsing: .unconditional, help: "Picture-in-picture width as a fraction of the picture, 0.1-0.5.")
    var pipSize: Double = 0.3

    // develop's spellings before the flags were shared.
    @Option(name: .customLong("stack"), help: .private) var stackAlias: String?
    @Option(name: .customLong("split"), help: .private) var splitAlias: String?
    @Option(name: .customLong("border"), parsing: .unconditional, help: .private) var borderAlias: Int?
    @Option(name: .customLong("border-color"), help: .private) var borderColorAlias: String?

    func validate() throws {
        for (new, old, both) in [("--composite-stack", "--stack", compositeStack != nil && stackAlias != nil),
                                 ("--composite-split", "--split", compositeSplit != nil && splitAlias != nil),
                                 ("--composite-border", "--border", compositeBorder != nil && borderAlias != nil),
                                 ("--composite-border-color", "--border-color", compositeBorderColor != nil && borderColorAlias != nil)]
        where both {
            throw BadValue("give \(new) or \(old) (its former name), not both")
        }
    }

    var stack: String { compositeStack ?? stackAlias ?? "vertical" }
    var split: String { compositeSplit ?? splitAlias ?? "50/50" }
    var border: Int { compositeBorder ?? borderAlias ?? 0 }
    var borderColor: String { compositeBorderColor ?? borderColorAlias ?? "white" }

    /// The compositor these options ask for, nil without --composite. The layout options are checked either way: a
    /// bad --pip-size or --composite-border-color is refused even when no composite is made (they are then unused).
    func compositor() throws(InvalidValueError) -> DualSensorCompositor? {
        let color = try BorderColor(parsing: borderColor)
        for kind in composite.map({ [$0] }) ?? ["stacked", "pip"] {
            let layout = try CompositeLayout(kind: kind, stack: stack, split: split, corner: pipCorner, size: pipSize)
            let compositor = try DualSensorCompositor(layout: layout, border: border, borderColor: color)
            if composite != nil { return compositor }
        }
        return nil
    }
}
