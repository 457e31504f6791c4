import Foundation
import RawCore
import RawDevelop
import Synchronization

/// A DNG's JPEG preview rendered and encoded on a thread of its own, so that the writer puts the thumbnail, the
/// camera-wide tags and the raw data into the file meanwhile: the writing of the raw data is one core's work (the
/// kernel copying it), and the preview keeps the other cores busy during it instead of before it.
final class PreviewJob: Sendable {
    /// The picture and its JPEG bytes, or the encoder's message.
    typealias Outcome = Result<(image: RGB8Image, jpeg: [UInt8]), DevelopError>

    /// Set once by the rendering thread before it signals `finished`. Owner: the rendering thread writes it,
    /// ``wait()`` reads it after the signal.
    private let outcome = Mutex<Outcome?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    /// Whether ``wait()`` has waited for the thread. Owner: the writer's thread, the only caller of ``wait()``.
    private let waited = Mutex(false)

    /// Starts rendering `image` with a long edge of `longEdge` pixels and encoding it with `encoder` at `quality`.
    init(_ image: RawImage, longEdge: Int, quality: Int, encoder: any PreviewEncoding) {
        let thread = Thread { [self] in
            let rendered = PreviewRenderer.render(image, longEdge: longEdge)
            let result: Outcome
            do throws(DevelopError) {
                result = .success((rendered, try encoder.encode(rendered, quality: quality)))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for the preview (at once when it was waited for before: the writer waits again on every way out, so that
    /// the render thread never reads a frame after its write returned, a caller's borrowed buffer included).
    @discardableResult
    func wait() -> Outcome {
        let first = waited.withLock { done in
            defer { done = true }
            return !done
        }
        if first { finished.wait() }
        return outcome.withLock { $0! } // set before the signal
    }
}
