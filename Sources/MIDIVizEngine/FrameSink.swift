import MIDIVizCore

/// Where rendered frames go. A sink takes frames one of three ways, which it names in `order`:
/// canvases from every worker in any order (a PNG folder), yuv420p frames in frame order (an
/// encoder), or straight RGBA frames in frame order (an encoder keeping alpha or full colour).
/// A new container or codec is one new type.
package protocol FrameSink: AnyObject, Sendable {
    var order: FrameOrder { get }
    /// A frame as rendered, from any worker thread (sinks of `.anyOrder`).
    func write(canvas: Canvas, frame: Int) throws(RenderError)
    /// A frame as BT.709 limited-range yuv420p, in order, one call at a time (sinks of `.inOrder`).
    /// The bytes stay as they are until the next frame's write, or `drain`, has returned: an
    /// encoder may read them until then.
    func write(yuv420p: UnsafeRawBufferPointer, frame: Int) throws(RenderError)
    /// A frame as straight (not premultiplied) RGBA, in order, one call at a time (`.inOrderRGBA`),
    /// kept as `write(yuv420p:frame:)`'s bytes are.
    func write(rgba: UnsafeRawBufferPointer, frame: Int) throws(RenderError)
    /// After the last frame: returns once the sink reads none of the frames' bytes any more.
    func drain() throws(RenderError)
    /// All frames are in: complete the output (under its temporary name).
    func finish() throws(RenderError)
    /// Give up at once (from any thread): stop children, close files. The temporaries are the
    /// transaction's to remove.
    func stop()
}

package enum FrameOrder: Sendable {
    case anyOrder, inOrder, inOrderRGBA
}

extension FrameSink {
    package func write(canvas: Canvas, frame: Int) throws(RenderError) {
        preconditionFailure("\(Self.self) takes yuv420p frames in order")
    }

    package func write(yuv420p: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        preconditionFailure("\(Self.self) takes canvases")
    }

    package func write(rgba: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        preconditionFailure("\(Self.self) takes no RGBA frames")
    }

    package func drain() throws(RenderError) {}

    package func stop() {}
}
