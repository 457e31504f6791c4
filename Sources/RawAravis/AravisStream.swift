import CAravis
import RawCore

/// An Aravis stream of one camera with its buffers, owned by this object: created with the transport options a
/// GigE Vision link on this kind of machine needs, stopped and released with it.
///
/// Buffers are either Aravis's own memory (``pushAllocated(count:)``, the copy path) or lent frame-pool slots
/// (``lend(_:)``: the buffer is a window of the slot's memory, so the camera writes the frame where the writer reads
/// it). A lent slot's buffer object is kept with it while the slot is out of the stream, to be queued again when the
/// same slot is lent again. Used from the sensor thread only (Aravis's own thread touches only queued buffers).
final class AravisStream {
    let handle: UnsafeMutablePointer<ArvStream>
    private let camera: AravisCamera
    private var acquiring = false
    /// Bytes of one frame's payload (each buffer's size).
    let payloadBytes: Int
    /// Bytes of the socket buffer (GigE Vision; 0 for other streams).
    let socketBufferBytes: Int
    /// The slot behind each lent buffer in the stream or popped, by buffer.
    private var lentSlots: [OpaquePointer: PixelStorage] = [:]
    /// Buffers of slots no longer lent, by slot, ready to be queued again (owned here; released in `deinit`).
    private var idleBuffers: [ObjectIdentifier: OpaquePointer] = [:]

    /// How a GigE Vision stream is set up (measured on loopback here: without disabling the packet socket no frame
    /// arrives; with the default socket buffer most frames lose packets; a fixed 4 MB buffer and 1400-byte packets
    /// deliver them whole).
    struct Transport {
        var disablePacketSocket = true
        var socketBufferBytes = 4 << 20
        var packetSize = 1400
    }

    /// Creates the stream for buffers of `payload` bytes (none queued yet).
    init(camera: AravisCamera, payload: Int, transport: Transport) throws(AravisError) {
        self.camera = camera
        payloadBytes = payload
        socketBufferBytes = camera.isGigEVision ? transport.socketBufferBytes : 0
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
    }

    /// Whether slots are lent (the stream's buffers are frame-pool memory).
    var isLending: Bool { !lentSlots.isEmpty }

    /// Queues `count` buffers of Aravis's own memory (the copy path: frames are unpacked out of them).
    func pushAllocated(count: Int) {
        for _ in 0..<count { arv_stream_push_buffer(handle, arv_buffer_new_allocate(payloadBytes)) }
    }

    /// Queues a buffer over the last ``payloadBytes`` bytes of `slot`'s memory, or over its first bytes when
    /// `atStart` (a 16-bit format: the camera's words are the samples).
    func lend(_ slot: PixelStorage, atStart: Bool) {
        let key = ObjectIdentifier(slot)
        let buffer: OpaquePointer
        if let idle = idleBuffers.removeValue(forKey: key) {
            buffer = idle
        } else {
            let memory = UnsafeMutableRawPointer(slot.baseAddress) + (atStart ? 0 : slot.count * 2 - payloadBytes)
            // A slot's pages are mapped on first touch: touched here, on the sensor thread, so Aravis's receiving thread
            // does not stall on thousands of page faults while packets pile up in its socket.
            for page in stride(from: 0, to: payloadBytes, by: 4096) { memory.storeBytes(of: 0, toByteOffset: page, as: UInt8.self) }
            buffer = arv_buffer_new(payloadBytes, memory)
        }
        lentSlots[buffer] = slot
        arv_stream_push_buffer(handle, buffer)
    }

    /// The slot a lent buffer lies in (nil for a buffer of Aravis's own memory).
    func slot(of buffer: OpaquePointer) -> PixelStorage? { lentSlots[buffer] }

    /// A popped lent buffer whose slot goes on to the writers: kept, out of the stream, for when the slot comes back.
    func retire(_ buffer: OpaquePointer) {
        guard let slot = lentSlots.removeValue(forKey: buffer) else { return }
        idleBuffers[ObjectIdentifier(slot)] = buffer
    }

    /// Stops the stream's thread and deletes the buffers queued in it, then starts the thread again with none (the
    /// stream's own teardown stops it once more): from here on nothing writes to a lent slot. Returns the slots that
    /// were lent.
    /// The idle buffers go too: they are windows of slots that may not outlive the burst.
    func releaseLentSlots() -> [PixelStorage] {
        for buffer in idleBuffers.values { rb_arv_unref(UnsafeMutableRawPointer(buffer)) }
        idleBuffers = [:]
        guard !lentSlots.isEmpty else { return [] }
        arv_stream_stop_thread(handle, 1)
        arv_stream_start_thread(handle)
        defer { lentSlots = [:] }
        return Array(lentSlots.values)
    }

    deinit {
        stop()
        _ = releaseLentSlots()
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
