import Hummingbird

/// The request context of the live server's HTTP routes.
struct LiveContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// Bodies are commands: 4 KiB.
    var maxUploadSize: Int { LiveCommandDecoder.maximumBytes }
}
