#if canImport(Glibc)
import Glibc
#endif

/// C strings a handle gives out (`rawburst_exif`'s names): copies that live as long as the handle and are freed
/// with it.
// Owned by one handle, which one caller thread uses at a time (rawburst.h); never shared between threads.
final class ABIStrings {
    private var copies: [UnsafeMutablePointer<CChar>] = []
    /// The EXIF strings already handed out, so that asking again gives the same pointers (a handle's metadata never
    /// changes) instead of new copies.
    private var kept: [String: UnsafePointer<CChar>] = [:]

    /// A C copy of `text` that lives as long as this store, or NULL for nil.
    func keep(_ text: String?) -> UnsafePointer<CChar>? {
        guard let text else { return nil }
        if let known = kept[text] { return known }
        guard let copy = strdup(text) else { return nil }
        copies.append(copy)
        kept[text] = UnsafePointer(copy)
        return UnsafePointer(copy)
    }

    /// Frees every copy (the pointers given out before are no longer valid).
    func removeAll() {
        for copy in copies { free(copy) }
        copies.removeAll()
        kept.removeAll()
    }

    deinit { removeAll() }
}
