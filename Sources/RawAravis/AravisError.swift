import CAravis
import RawCore

/// Why talking to a GenICam camera through Aravis failed, in one line. Callers decide by ``kind``.
public struct AravisError: RawBurstError, Hashable {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// Aravis reported an error (a `GError`): the camera refused a value, a register access failed, ...
        case library
        /// No camera with the asked-for id is connected, or none at all.
        case noCamera
        /// The camera lacks a feature a setting needs (``AravisError/feature`` names it).
        case missingFeature
        /// A value lies outside the camera's bounds for a feature (``AravisError/feature`` names it).
        case outOfRange
        /// The camera's pixel format is not one rawburst can unpack into a raw frame.
        case unsupportedFormat
        /// The camera stopped sending frames.
        case stopped
    }

    /// What went wrong.
    public let kind: Kind
    /// The GenICam feature concerned (e.g. `Gain`, `ExposureTime`), when there is one.
    public let feature: String?
    /// What went wrong, in one line.
    public let message: String

    /// An error of `kind`.
    public init(_ kind: Kind, feature: String? = nil, _ message: String) {
        self.kind = kind
        self.feature = feature
        self.message = message
    }

    /// `camera`, or `camera FEATURE` when a feature is concerned.
    public var subject: String? { feature.map { "camera \($0)" } ?? "camera" }
}

/// Calls `body` with a `GError**` and turns an error it reports into an ``AravisError`` (`.library`), naming `what`
/// was being done and the error's domain; frees the `GError`.
func withGError<T>(_ what: String,
                   _ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T) throws(AravisError) -> T {
    var error: UnsafeMutablePointer<GError>?
    let result = body(&error)
    if let error {
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let domain = String(cString: rb_arv_error_domain(error))
        g_error_free(error)
        throw AravisError(.library, "\(what): \(message) (\(domain))")
    }
    return result
}

/// A C string from Aravis as a Swift string ("" for NULL).
func aravisString(_ text: UnsafePointer<CChar>?) -> String {
    text.map { String(cString: $0) } ?? ""
}
