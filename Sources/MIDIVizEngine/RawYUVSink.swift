import Foundation
import MIDIVizIO

/// The frames as raw yuv420p, one after another: what an encoder alone can be measured on.
/// The corresponding C functions are `fopen`, `fwrite`, `fclose`. `@unchecked Sendable`: owns a
/// FILE handle, written by one thread at a time (the pipeline's in-order writer).
package final class RawYUVSink: FrameSink, @unchecked Sendable {
    private let path: String
    private var file: UnsafeMutablePointer<FILE>?
    package var order: FrameOrder { .inOrder }

    package init(path: String) throws(RenderError) {
        self.path = path
        guard let file = fopen(path, "wb") else { throw .cannotCreate("cannot write \(path): \(systemError())") }
        self.file = file
    }

    deinit { if let file { fclose(file) } }

    package func write(yuv420p: UnsafeRawBufferPointer, frame: Int) throws(RenderError) {
        guard fwrite(yuv420p.baseAddress, 1, yuv420p.count, file) == yuv420p.count else {
            throw .cannotCreate("cannot write \(path): \(systemError())")
        }
    }

    package func finish() throws(RenderError) {
        let status = fclose(file)
        file = nil
        guard status == 0 else { throw .cannotCreate("cannot write \(path): \(systemError())") }
    }
}
