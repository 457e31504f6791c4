/// How setting values are written in messages and files: whole numbers without a fraction (`100`, `5600`),
/// others as Swift prints them (`0.3`, `-0.7`), and values too large for an integer as doubles (`1e+20`),
/// never trapping on a value a user typed.
public enum SettingText {
    /// `4`, `0.3`, `-0.7`, `1e+20`, `inf`.
    public static func number(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
