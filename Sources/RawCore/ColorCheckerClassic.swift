/// One patch of the classic 24-patch ColorChecker.
public struct ColorCheckerPatch: Sendable, Hashable {
    /// Patch number as printed on the back of the chart, 1...24 (row by row, from the top left).
    public let number: Int
    /// The patch's name ("dark skin", …, "black 2").
    public let name: String
    /// Row on the chart, 0...3 (row 3 is the grey scale).
    public let row: Int
    /// Column on the chart, 0...5.
    public let column: Int
    /// Reference colour, CIELAB relative to D50 (``ColorSpaceMath/d50White``), 2° observer.
    public let labD50: CIELab

    /// Creates a patch.
    public init(number: Int, name: String, row: Int, column: Int, labD50: CIELab) {
        self.number = number
        self.name = name
        self.row = row
        self.column = column
        self.labD50 = labD50
    }

    /// The patch as a linear sRGB (D65) reflectance, through Bradford D50 → D65; not clipped.
    public var linearSRGB: (red: Double, green: Double, blue: Double) {
        ColorSpaceMath.linearSRGB(fromLabD50: labD50)
    }
}

/// The classic 24-patch ColorChecker (McCamy, Marcus and Davidson, 1976), as made since November 2014.
public enum ColorCheckerClassic {
    /// Where the values of ``patches`` come from.
    public static let reference = """
        X-Rite, "New color specifications for ColorChecker SG and Classic charts" (charts made after \
        November 2014): CIELAB D50, 2° observer, measured with an i1Pro 2 (M0, no filter), two decimals. \
        The same table is distributed as colour-science's DATA_COLORCHECKER24_AFTER_NOV2014_CIE_LAB.
        """

    /// The 24 patches in chart order: row 0 is dark skin … bluish green, row 3 is white 9.5 … black 2.
    public static let patches: [ColorCheckerPatch] = {
        let table: [(String, Double, Double, Double)] = [
            ("dark skin", 37.54, 14.37, 14.92),
            ("light skin", 64.66, 19.27, 17.50),
            ("blue sky", 49.32, -3.82, -22.54),
            ("foliage", 43.46, -12.74, 22.72),
            ("blue flower", 54.94, 9.61, -24.79),
            ("bluish green", 70.48, -32.26, -0.37),
            ("orange", 62.73, 35.83, 56.50),
            ("purplish blue", 39.43, 10.75, -45.17),
            ("moderate red", 50.57, 48.64, 16.67),
            ("purple", 30.10, 22.54, -20.87),
            ("yellow green", 71.77, -24.13, 58.19),
            ("orange yellow", 71.51, 18.24, 67.37),
            ("blue", 28.37, 15.42, -49.80),
            ("green", 54.38, -39.72, 32.27),
            ("red", 42.43, 51.05, 28.62),
            ("yellow", 81.80, 2.67, 80.41),
            ("magenta", 50.63, 51.28, -14.12),
            ("cyan", 49.57, -29.71, -28.32),
            ("white 9.5", 95.19, -1.03, 2.93),
            ("neutral 8", 81.29, -0.57, 0.44),
            ("neutral 6.5", 66.89, -0.75, -0.06),
            ("neutral 5", 50.76, -0.13, 0.14),
            ("neutral 3.5", 35.63, -0.46, -0.48),
            ("black 2", 20.64, 0.07, -0.46),
        ]
        return table.enumerated().map { index, entry in
            ColorCheckerPatch(number: index + 1, name: entry.0, row: index / 6, column: index % 6,
                              labD50: CIELab(L: entry.1, a: entry.2, b: entry.3))
        }
    }()

    /// The patch with chart number `number` (1...24), or nil.
    public static func patch(number: Int) -> ColorCheckerPatch? {
        (1...24).contains(number) ? patches[number - 1] : nil
    }
}
