import Foundation
import MIDIVizCore

/// Renders a range of frames on several workers and writes each as `frame_NNNNNN.png` (numbered
/// from 1). Each worker owns one canvas and one shape buffer for all its frames; frames are
/// independent, so the pixels do not depend on the number of workers.
public struct FrameSequenceWriter: Sendable {
    public let renderer: FrameRenderer
    public let png: PNGWriter
    public let jobs: Int

    public init(renderer: FrameRenderer, png: PNGWriter, jobs: Int) {
        self.renderer = renderer
        self.png = png
        self.jobs = max(1, jobs)
    }

    public static func fileName(ofFrame index: Int) -> String {
        let number = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".png"
    }

    /// Writes `frames` into `directory`'s staging folder; `progress` is called (from any worker)
    /// after each frame with the number done so far.
    public func write(frames: Range<Int>, to directory: StagedDirectory,
                      progress: @Sendable (Int) -> Void = { _ in }) throws(PNGWriter.WriteError) {
        let queue = WorkQueue(frames: frames)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(frames.count, 1))) { _ in
            var workspace = renderer.makeWorkspace()
            while let frame = queue.next() {
                renderer.render(frame: frame, in: &workspace)
                do throws(PNGWriter.WriteError) {
                    try png.write(workspace.canvas, to: directory.path(of: Self.fileName(ofFrame: frame - frames.lowerBound)))
                } catch {
                    queue.fail(error)
                    return
                }
                progress(queue.finishOne())
            }
        }
        if let error = queue.error { throw error }
    }
}

/// Hands out frame indices to workers and collects the first failure.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var nextFrame: Int
    private let end: Int
    private var done = 0
    private(set) var error: PNGWriter.WriteError?

    init(frames: Range<Int>) {
        nextFrame = frames.lowerBound
        end = frames.upperBound
    }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard error == nil, nextFrame < end else { return nil }
        defer { nextFrame += 1 }
        return nextFrame
    }

    func finishOne() -> Int {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        return done
    }

    func fail(_ failure: PNGWriter.WriteError) {
        lock.lock()
        if error == nil { error = failure }
        lock.unlock()
    }
}
