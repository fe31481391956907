// SPDX-License-Identifier: MIT
import CGlib
import CWayland
import CanvasModel
#if canImport(Glibc)
import Glibc
#endif

/// One wl_shm buffer a frame is painted into: ARGB8888 premultiplied, which
/// is cairo's ARGB32 on a little-endian machine, so cairo draws straight into
/// the memory the compositor reads.
@MainActor
final class ShmBuffer {
    let buffer: OpaquePointer
    let cairo: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    private let size: Int
    let width: Int32, height: Int32, scale: Double
    /// The compositor reads it until it sends `release`.
    var busy = false
    /// What changed since this buffer was last painted (logical pixels); each
    /// buffer keeps its own, since a frame painted into the other one did not
    /// reach this one.
    var stale: PixelRect?
    var onRelease: (@MainActor () -> Void)?

    /// `width`×`height` buffer pixels, `scale` of them to a logical pixel.
    init?(shm: OpaquePointer, width: Int32, height: Int32, scale: Double) {
        let stride = width * 4
        size = Int(stride) * Int(height)
        let fd = stylus_shm_file(Int64(size))
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else { return nil }
        self.memory = memory
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride, UInt32(WL_SHM_FORMAT_ARGB8888.rawValue))
        wl_shm_pool_destroy(pool)
        self.width = width
        self.height = height
        self.scale = scale
        cairo = cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, width, height, stride)
        cairo_surface_set_device_scale(cairo, scale, scale)
        wl_buffer_add_listener(buffer, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        wl_buffer_destroy(buffer)
        cairo_surface_destroy(cairo)
        munmap(memory, size)
    }

    private static let listener: UnsafeMutablePointer<wl_buffer_listener> = allocate({
        var l = wl_buffer_listener()
        l.release = { data, _ in
            onMain(data, ShmBuffer.self) { me in
                me.busy = false
                me.onRelease?()
            }
        }
        return l
    }())
}
