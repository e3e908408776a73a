import MIDIVizCore
import MIDIVizIO

/// `frame_000001.png` ... written by every worker into a (staged) folder.
package final class PNGFolderSink: FrameSink {
    package let directory: String
    package let writer: PNGWriter
    package var order: FrameOrder { .anyOrder }

    package init(directory: String, level: Int, alpha: Bool = false) {
        self.directory = directory
        writer = PNGWriter(level: level, alpha: alpha)
    }

    /// `frame_000001.png` for frame 0.
    package static func fileName(ofFrame index: Int) -> String {
        let number = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".png"
    }

    package func write(canvas: Canvas, frame: Int) throws(RenderError) {
        do {
            try writer.write(canvas, to: directory + "/" + Self.fileName(ofFrame: frame))
        } catch {
            throw .cannotCreate(error.description)
        }
    }

    package func finish() throws(RenderError) {}
}
