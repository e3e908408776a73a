import Foundation
import MIDIVizCore
import MIDIVizIO

/// Renders frames on several workers and hands each to every sink: canvases to the sinks that
/// take any order, and yuv420p, in order, to the encoders. At most `window` frames are in
/// flight, so memory stays bounded whatever the song's length. Each worker reuses its workspace
/// and its yuv420p planes: it converts only the tiles a frame changed (and, when the frames go
/// only to the encoders, moves the planes with a frame of the roll rather than its canvas:
/// `FrameWorkspace.keepsCanvasWhole`), once the encoders read its previous frame from those
/// planes no more (no copy: the frame after it has been written, or when that is the worker's
/// own, the pipe has been drained).
struct FramePipeline: Sendable {
    let renderer: FrameRenderer
    let jobs: Int
    /// The index of the first frame on the song's frame grid (the frame at `--from`).
    let firstFrame: Int
    let sinks: [any FrameSink]
    /// `--background-video`: the frames behind the notes (nil: the still backdrop).
    let background: BackgroundVideoFrames?
    private let state: PipelineState

    /// - Parameters:
    ///   - frameCount: the number of frames, or the least it can be while `isFinal` is false
    ///     (the sound, bounced beside the frames, may ring on longer): `settle` gives the count.
    init(
        renderer: FrameRenderer, jobs: Int, firstFrame: Int, frameCount: Int, isFinal: Bool, sinks: [any FrameSink],
        background: BackgroundVideoFrames? = nil
    ) {
        self.background = background
        self.renderer = renderer
        // More workers than cores only cost memory (a canvas and planes each).
        self.jobs = max(1, min(jobs, AvailableCores.count))
        self.firstFrame = firstFrame
        self.sinks = sinks
        state = PipelineState(window: Self.window(jobs: self.jobs), frameCount: frameCount, isFinal: isFinal)
    }

    /// The most frames in flight for `jobs` workers.
    static func window(jobs: Int) -> Int { max(1, min(jobs, AvailableCores.count)) * 2 + 2 }

    /// The final number of frames (at least the one given at the start); from any thread.
    func settle(frameCount: Int) { state.settle(frameCount) }

    /// Ends the run with `error` (the sound beside the frames failed); from any thread.
    func fail(_ error: Error) { state.fail(error) }

    /// The number of frames, once settled.
    var frameCount: Int { state.frameCount }

    /// The time frame `index` shows: the song's frame `firstFrame + index`, never accumulated.
    func seconds(ofFrame index: Int) -> Double {
        renderer.scene.settings.seconds(ofFrame: firstFrame + index)
    }

    /// - Parameters:
    ///   - progress: the number of frames done and the number of frames (a floor until
    ///     settled), after each frame; called with the pipeline's lock held, so it must not
    ///     call back into the pipeline.
    ///   - shouldStop: asked before each frame; yes ends the run with `.interrupted`.
    func run(progress: @escaping @Sendable (Int, Int) -> Void, shouldStop: @escaping @Sendable () -> Bool) throws {
        let state = self.state
        let anyOrder = sinks.filter { $0.order == .anyOrder }
        let inOrder = sinks.filter { $0.order == .inOrder }
        let inOrderRGBA = sinks.filter { $0.order == .inOrderRGBA }
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            var workspace = renderer.makeWorkspace()
            // Frames only to the encoders' yuv420p planes: the canvas need not hold them whole.
            workspace.keepsCanvasWhole = !(anyOrder.isEmpty && inOrderRGBA.isEmpty && !inOrder.isEmpty && background == nil)
            let planes = WorkerPlanes()
            var lastDelivered: Int? = nil
            while let index = state.claim() {
                if shouldStop() {
                    state.fail(RenderError.interrupted(signal: nil))
                    return
                }
                do {
                    if let background {
                        renderer.render(at: seconds(ofFrame: index), over: try background.frame(index), in: &workspace)
                    } else {
                        renderer.render(at: seconds(ofFrame: index), in: &workspace)
                    }
                    for sink in anyOrder { try sink.write(canvas: workspace.canvas, frame: index) }
                    if inOrder.isEmpty && inOrderRGBA.isEmpty {
                        state.finishUnordered(progress: progress)
                    } else {
                        if let lastDelivered {
                            // An encoder may read a frame's bytes until the next frame's write
                            // has returned (`FrameSink.write`).
                            if index == lastDelivered + 1 {
                                // The next frame is this one: nothing comes between to push the
                                // last out of the pipe. It is written, then read to the end.
                                guard state.waitUntilWritten(lastDelivered) else { return }
                                for sink in inOrder + inOrderRGBA { try sink.drain() }
                            } else if !state.waitUntilWritten(lastDelivered + 1) {
                                return
                            }
                        }
                        if !inOrder.isEmpty {
                            planes.yuv.update(
                                from: workspace.canvas, changed: workspace.changed, moved: workspace.moved, laid: renderer.laidLayer(of: workspace))
                        }
                        if !inOrderRGBA.isEmpty { StraightRGBA.copy(workspace.canvas, into: &planes.rgba) }
                        lastDelivered = index
                        try state.deliver(index, planes, progress: progress) { planes, frame in
                            if !inOrder.isEmpty {
                                try planes.yuv.bytes.withUnsafeBytes { bytes in
                                    for sink in inOrder { try sink.write(yuv420p: bytes, frame: frame) }
                                }
                            }
                            if !inOrderRGBA.isEmpty {
                                try planes.rgba.withUnsafeBytes { bytes in
                                    for sink in inOrderRGBA { try sink.write(rgba: bytes, frame: frame) }
                                }
                            }
                        }
                    }
                } catch {
                    state.fail(error)
                    return
                }
            }
        }
        if let error = state.error { throw error }
        // The encoders may still read the last frame, from planes the state keeps until then.
        for sink in inOrder + inOrderRGBA { try sink.drain() }
        state.releaseWritten()
    }
}

/// A worker's yuv420p planes, shared with whichever thread writes them to the encoders: the
/// worker changes them only once the encoders read the frame they last held no more.
/// `@unchecked Sendable`: frame buffers handed between threads by that protocol, without a copy.
private final class WorkerPlanes: @unchecked Sendable {
    var yuv = YUV420Planes()
    /// The frame as straight RGBA, for the sinks that take it.
    var rgba: [UInt32] = []
}

/// The shared state of the pipeline: the next frame to claim, the frames ready to be written in
/// order, and the first error. `@unchecked Sendable`: every field is under `condition`, an
/// NSCondition (workers wait on it; `Mutex` has no waiting).
private final class PipelineState: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    private var nextToClaim = 0
    private var nextToWrite = 0
    private var ready: [Int: WorkerPlanes] = [:]
    /// The planes of the last frame written, kept while the encoders may read them.
    private var written: WorkerPlanes?
    private var isWriting = false
    private(set) var error: Error?
    private var count: Int
    private var isFinal: Bool

    init(window: Int, frameCount: Int, isFinal: Bool) {
        self.window = window
        count = frameCount
        self.isFinal = isFinal
    }

    var frameCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    func settle(_ frameCount: Int) {
        condition.lock()
        count = max(count, frameCount)
        isFinal = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next frame to render, once it is within `window` of the writer and the count is known
    /// to include it; nil when done or failed.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil && (nextToClaim >= nextToWrite + window || (nextToClaim >= count && !isFinal)) { condition.wait() }
        guard error == nil, nextToClaim < count else { return nil }
        defer { nextToClaim += 1 }
        return nextToClaim
    }

    /// Counts a frame that needs no ordered delivery.
    func finishUnordered(progress: (Int, Int) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        nextToWrite += 1
        progress(nextToWrite, count)
        condition.broadcast()
    }

    /// Waits until frame `index` has been written; false if the run failed meanwhile.
    func waitUntilWritten(_ index: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while error == nil && nextToWrite <= index { condition.wait() }
        return error == nil
    }

    /// Hands frame `index` over; whoever holds the next frame to write drains every consecutive
    /// ready frame into the sink, outside the lock.
    func deliver(
        _ index: Int, _ planes: WorkerPlanes, progress: (Int, Int) -> Void,
        to sink: (WorkerPlanes, Int) throws -> Void
    ) throws {
        condition.lock()
        ready[index] = planes
        guard !isWriting else { condition.unlock(); return }
        isWriting = true
        while error == nil, let next = ready.removeValue(forKey: nextToWrite) {
            let frame = nextToWrite
            condition.unlock()
            do {
                try sink(next, frame)
            } catch {
                condition.lock()
                isWriting = false
                condition.unlock()
                throw error
            }
            condition.lock()
            // Once this write has returned the frame before it is read: its planes may go, even
            // when its worker has finished.
            written = next
            nextToWrite += 1
            progress(nextToWrite, count)
            condition.broadcast()
        }
        isWriting = false
        condition.unlock()
    }

    /// Lets the last frame's planes go, once the encoders read them no more.
    func releaseWritten() {
        condition.lock()
        written = nil
        condition.unlock()
    }

    func fail(_ failure: Error) {
        condition.lock()
        if error == nil { error = failure }
        condition.broadcast()
        condition.unlock()
    }
}
