import CAravis

/// The cameras Aravis can see: GigE Vision cameras that answer discovery on any interface (loopback included),
/// and USB3 Vision cameras.
///
/// Discovery broadcasts on every IPv4 interface; a GigE Vision camera served by `arv-fake-gv-camera-0.8 -i 127.0.0.1`
/// answers on loopback and is found without enabling Aravis's in-process "Fake" interface (measured here).
public enum AravisDeviceList {
    /// One camera as discovery reports it (nothing is opened).
    public struct Device: Sendable, Hashable, Codable {
        /// Aravis's device id (`VENDOR-MODEL-SERIAL` or an address): what `--camera aravis:ID` takes.
        public let id: String
        /// Vendor name.
        public let vendor: String
        /// Model name.
        public let model: String
        /// Serial number.
        public let serialNumber: String
        /// `GigEVision` or `USB3Vision`.
        public let transport: String
        /// The camera's address (an IPv4 address for GigE Vision, a USB bus address for USB3 Vision).
        public let address: String
    }

    /// Runs discovery and returns every camera found, in Aravis's order. Discovery takes about a second when a
    /// GigE Vision interface has to wait for answers.
    public static func discover() -> [Device] {
        arv_update_device_list()
        let count = arv_get_n_devices()
        return (0..<count).map { index in
            Device(id: aravisString(arv_get_device_id(index)), vendor: aravisString(arv_get_device_vendor(index)),
                   model: aravisString(arv_get_device_model(index)),
                   serialNumber: aravisString(arv_get_device_serial_nbr(index)),
                   transport: aravisString(arv_get_device_protocol(index)),
                   address: aravisString(arv_get_device_address(index)))
        }
    }
}
