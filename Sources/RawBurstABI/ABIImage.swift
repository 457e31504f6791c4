import CRawBurst
import RawCore
import RawFiles

/// `rawburst_image`: a raw file read, its samples and what it says about them, until `rawburst_image_free`.
// Used by one caller thread at a time (rawburst.h); its strings are handed out from `strings`.
final class ABIImage {
    let image: RawImage
    let strings = ABIStrings()

    init(_ image: RawImage) { self.image = image }

    /// The handle C holds: this object retained once.
    var handle: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    /// The mosaic of the raw file at `path`.
    static func read(path: String) throws(ABIFailure) -> RawImage {
        let content: RawFileContent
        do { content = try RawFileReader().readContent(path: path) } catch { throw .read(error) }
        guard case .mosaic(let raw) = content else {
            throw ABIFailure(.read, "\(path): a LinearRaw DNG (already demosaiced: three samples a pixel), not a mosaic")
        }
        return raw
    }

    static func from(_ handle: OpaquePointer?) throws(ABIFailure) -> ABIImage {
        guard let handle else { throw .argument("image", "is NULL") }
        return Unmanaged<ABIImage>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}

@_cdecl("rawburst_read")
public func rawburst_read(_ path: UnsafePointer<CChar>?, _ image: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    ABIResult.run {
        let source = try requiredString(path, "path")
        guard let image else { throw ABIFailure.argument("image", "is NULL") }
        image.pointee = nil
        image.pointee = ABIImage(try ABIImage.read(path: source)).handle
        return ABIResult.ok
    }
}

@_cdecl("rawburst_image_samples")
public func rawburst_image_samples(_ image: OpaquePointer?, _ rowStride: UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt16>? {
    guard let image, let held = try? ABIImage.from(image) else { return nil }
    rowStride?.pointee = held.image.frame.rowStride
    return UnsafePointer(held.image.frame.storage.baseAddress)
}

@_cdecl("rawburst_image_layout")
public func rawburst_image_layout(_ image: OpaquePointer?, _ layout: UnsafeMutablePointer<rawburst_layout>?) -> Int32 {
    ABIResult.run {
        let held = try ABIImage.from(image)
        return try filling(layout, "rawburst_layout", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.image.frame) }
    }
}

@_cdecl("rawburst_image_exif")
public func rawburst_image_exif(_ image: OpaquePointer?, _ exif: UnsafeMutablePointer<rawburst_exif>?) -> Int32 {
    ABIResult.run {
        let held = try ABIImage.from(image)
        return try filling(exif, "rawburst_exif", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.image.metadata, strings: held.strings) }
    }
}

@_cdecl("rawburst_image_gps")
public func rawburst_image_gps(_ image: OpaquePointer?, _ gps: UnsafeMutablePointer<rawburst_gps>?) -> Int32 {
    ABIResult.run {
        let held = try ABIImage.from(image)
        return try filling(gps, "rawburst_gps", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.image.metadata.gps) }
    }
}

@_cdecl("rawburst_image_color")
public func rawburst_image_color(_ image: OpaquePointer?, _ color: UnsafeMutablePointer<rawburst_color>?) -> Int32 {
    ABIResult.run {
        let held = try ABIImage.from(image)
        return try filling(color, "rawburst_color", size: \.struct_size) { ABIFrameValues.fill(&$0, from: held.image.calibration, metadata: held.image.metadata) }
    }
}

@_cdecl("rawburst_image_free")
public func rawburst_image_free(_ image: OpaquePointer?) {
    guard let image else { return }
    Unmanaged<ABIImage>.fromOpaque(UnsafeRawPointer(image)).release()
}
