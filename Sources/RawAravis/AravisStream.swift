import CAravis

/// An Aravis stream of one camera with its buffers, owned by this object: created with the transport options a
/// GigE Vision link on this kind of machine needs, stopped and released with it.
final class AravisStream {
    let handle: UnsafeMutablePointer<ArvStream>
    private let camera: AravisCamera
    private var acquiring = false
    /// Bytes of the buffers pushed (Aravis's own memory, besides the pool's slots) and of the socket buffer.
    let allocatedBytes: Int

    /// How a GigE Vision stream is set up (measured on loopback here: without disabling the packet socket no frame
    /// arrives; with the default socket buffer most frames lose packets; a fixed 4 MB buffer and 1400-byte packets
    /// deliver them whole).
    struct Transport {
        var disablePacketSocket = true
        var socketBufferBytes = 4 << 20
        var packetSize = 1400
    }

    /// Creates the stream and pushes `buffers` buffers of `payload` bytes.
    init(camera: AravisCamera, buffers: Int, payload: Int, transport: Transport) throws(AravisError) {
        self.camera = camera
        allocatedBytes = buffers * payload + (camera.isGigEVision ? transport.socketBufferBytes : 0)
        if camera.isGigEVision {
            if transport.disablePacketSocket {
                arv_camera_gv_set_stream_options(camera.handle, ARV_GV_STREAM_OPTION_PACKET_SOCKET_DISABLED)
            }
            try withGError("cannot set GevSCPSPacketSize to \(transport.packetSize)") {
                arv_camera_gv_set_packet_size(camera.handle, gint(transport.packetSize), $0)
            }
        }
        let created = try withGError("cannot create the stream") { arv_camera_create_stream(camera.handle, nil, nil, $0) }
        guard let created else { throw AravisError(.library, "cannot create the stream") }
        handle = created
        rb_arv_gv_stream_set_fixed_socket_buffer(handle, gint(transport.socketBufferBytes))
        for _ in 0..<buffers { arv_stream_push_buffer(handle, arv_buffer_new_allocate(payload)) }
    }

    deinit {
        stop()
        rb_arv_unref(handle)
    }

    /// Sets continuous acquisition and starts it.
    func start() throws(AravisError) {
        guard !acquiring else { return }
        try withGError("cannot set AcquisitionMode Continuous") {
            arv_camera_set_acquisition_mode(camera.handle, ARV_ACQUISITION_MODE_CONTINUOUS, $0)
        }
        try withGError("cannot start the acquisition") { arv_camera_start_acquisition(camera.handle, $0) }
        acquiring = true
    }

    /// Stops the acquisition (errors ignored: the camera may be gone).
    func stop() {
        guard acquiring else { return }
        acquiring = false
        _ = try? withGError("") { arv_camera_stop_acquisition(camera.handle, $0) }
    }

    /// The next filled buffer, or nil when none came within `timeoutMicroseconds`. Give it back with `push`.
    func pop(timeoutMicroseconds: UInt64) -> OpaquePointer? {
        arv_stream_timeout_pop_buffer(handle, guint64(timeoutMicroseconds))
    }

    /// What the stream has counted since it was created.
    func counters() -> AravisStreamCounters {
        var completed: guint64 = 0, failures: guint64 = 0, underruns: guint64 = 0
        arv_stream_get_statistics(handle, &completed, &failures, &underruns)
        return AravisStreamCounters(completedBuffers: UInt64(completed), failedBuffers: UInt64(failures),
                                    underruns: UInt64(underruns))
    }

    /// Gives a buffer back to the stream to be filled again.
    func push(_ buffer: OpaquePointer) {
        arv_stream_push_buffer(handle, buffer)
    }
}
