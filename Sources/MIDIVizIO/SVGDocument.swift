import CRSVG
import MIDIVizCore

/// An SVG document parsed by librsvg, drawn with cairo into coverage masks: the engraved sheet
/// music, drawn a tile at a time as frames need it (`SVGTileDrawer`). Owns an `RsvgHandle`,
/// released in `deinit`; librsvg's handle is not for two threads at once.
package final class SVGDocument {
    package struct SVGError: Error, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    private var handle: UnsafeMutablePointer<RsvgHandle>?

    /// Parses `bytes` (no size limit: an engraved piece is a long document).
    /// The corresponding C functions are `g_memory_input_stream_new_from_data` and
    /// `rsvg_handle_new_from_stream_sync` (with `RSVG_HANDLE_FLAG_UNLIMITED`).
    package init(bytes: [UInt8]) throws(SVGError) {
        guard !bytes.isEmpty else { throw SVGError(reason: "an empty SVG document") }
        var error: UnsafeMutablePointer<GError>?
        let parsed: UnsafeMutablePointer<RsvgHandle>? = bytes.withUnsafeBytes { buffer in
            // The stream copies nothing: it is read to its end before this closure returns.
            let stream = g_memory_input_stream_new_from_data(buffer.baseAddress, gssize(buffer.count), nil)
            defer { g_object_unref(stream) }
            return rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAG_UNLIMITED, nil, &error)
        }
        guard let parsed else { throw SVGError(reason: "librsvg cannot read the SVG (\(Self.take(error)))") }
        handle = parsed
    }

    deinit {
        if let handle { g_object_unref(handle) }
    }

    /// Draws the document scaled into `width` × `height` pixels, shifted left by `left` pixels and
    /// down by `top`, into a coverage mask `columns` × `rows` (row by row, 0 = nothing, 255 = ink).
    /// The corresponding C functions are `cairo_image_surface_create` (`CAIRO_FORMAT_A8`) and
    /// `rsvg_handle_render_document`.
    package func coverage(width: Double, height: Double, left: Int, top: Double, columns: Int, rows: Int) throws(SVGError) -> [UInt8] {
        guard columns > 0, rows > 0, let handle else { return [] }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(columns), Int32(rows)) else {
            throw SVGError(reason: "cairo cannot make a \(columns)x\(rows) surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            throw SVGError(reason: "cairo cannot make a \(columns)x\(rows) surface")
        }
        defer { cairo_destroy(context) }
        var viewport = RsvgRectangle(x: Double(-left), y: top, width: width, height: height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
            throw SVGError(reason: "librsvg cannot draw the SVG (\(Self.take(error)))")
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { throw SVGError(reason: "cairo gave no pixels") }
        var mask = [UInt8](repeating: 0, count: columns * rows)
        mask.withUnsafeMutableBufferPointer { out in
            for row in 0..<rows {
                (out.baseAddress! + row * columns).update(from: data + row * stride, count: columns)
            }
        }
        return mask
    }

    /// The ink bounds of the element `id` (without `#`) when the document is scaled into
    /// `width` × `height` pixels: x, y, width, height; nil when there is no such element.
    /// The corresponding C function is `rsvg_handle_get_geometry_for_layer`.
    package func inkBounds(ofElement id: String, width: Double, height: Double) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard let handle else { return nil }
        var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
        var ink = RsvgRectangle(), logical = RsvgRectangle()
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_get_geometry_for_layer(handle, "#" + id, &viewport, &ink, &logical, &error) != 0 else {
            _ = Self.take(error)
            return nil
        }
        return (ink.x, ink.y, ink.width, ink.height)
    }

    /// A GError's message, the error freed.
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }
}

@available(*, unavailable) extension SVGDocument: Sendable {}
