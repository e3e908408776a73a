import MIDIVizCore
import MIDIVizIO

/// `frame_000001.png` ... written by every worker into a (staged) folder.
package final class PNGFolderSink: FrameSink {
    package let directory: String
    package let writer: PNGWriter
    /// Added to a frame's index for its name: a segment's frames are named as in the whole
    /// render (segment 2's first frame of 28 in 84 is `frame_000029.png`).
    package let firstIndex: Int
    package var order: FrameOrder { .anyOrder }

    package init(directory: String, level: Int, alpha: Bool = false, firstIndex: Int = 0) {
        self.directory = directory
        writer = PNGWriter(level: level, alpha: alpha)
        self.firstIndex = firstIndex
    }

    /// `frame_000001.png` for frame 0.
    package static func fileName(ofFrame index: Int) -> String {
        let number = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".png"
    }

    package func write(canvas: Canvas, frame: Int) throws(RenderError) {
        do {
            try writer.write(canvas, to: directory + "/" + Self.fileName(ofFrame: firstIndex + frame))
        } catch {
            throw .cannotCreate(error.description)
        }
    }

    package func finish() throws(RenderError) {}
}
