import Foundation
import MIDIVizCore

/// Renders frames on several workers and hands them, in order, to one sink (ffmpeg's stdin) as
/// yuv420p, optionally also writing each as PNG. At most `window` frames are in flight, so
/// memory stays bounded whatever the song's length; each worker reuses its workspace.
public struct VideoPipeline: Sendable {
    public let renderer: FrameRenderer
    public let jobs: Int
    /// The song time of the first frame (the start of `--from`).
    public let startSeconds: Double
    public let frameCount: Int
    /// Also write `frame_NNNNNN.png` here.
    public let frames: (directory: StagedDirectory, png: PNGWriter)?

    public init(renderer: FrameRenderer, jobs: Int, startSeconds: Double, frameCount: Int,
                frames: (directory: StagedDirectory, png: PNGWriter)?) {
        self.renderer = renderer
        self.jobs = max(1, jobs)
        self.startSeconds = startSeconds
        self.frameCount = frameCount
        self.frames = frames
    }

    public static func fileName(ofFrame index: Int) -> String {
        let number = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 6 - number.count)) + number + ".png"
    }

    /// The time frame `index` shows: computed from the index, never accumulated.
    public func seconds(ofFrame index: Int) -> Double {
        startSeconds + Double(index) / Double(renderer.scene.settings.framesPerSecond)
    }

    /// - Parameter sink: receives each frame as yuv420p, in order; nil when only PNG frames are wanted.
    public func run(into sink: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?,
                    progress: @escaping @Sendable (Int) -> Void) throws {
        let state = PipelineState(window: jobs * 2 + 2)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(frameCount, 1))) { _ in
            var workspace = renderer.makeWorkspace()
            while let index = state.claim(below: frameCount) {
                renderer.render(at: seconds(ofFrame: index), in: &workspace)
                do {
                    if let frames {
                        try frames.png.write(workspace.canvas, to: frames.directory.path(of: Self.fileName(ofFrame: index)))
                    }
                    if let sink {
                        var buffer = state.takeBuffer()
                        YUV420.convert(workspace.canvas, into: &buffer)
                        try state.deliver(index, buffer, to: sink, progress: progress)
                    } else {
                        progress(state.finishUnordered())
                    }
                } catch {
                    state.fail(error)
                    return
                }
            }
        }
        if let error = state.error { throw error }
    }
}

/// The shared state of the pipeline: the next frame to claim, the frames ready to be written in
/// order, recycled buffers, and the first error.
private final class PipelineState: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    private var nextToClaim = 0
    private var nextToWrite = 0
    private var ready: [Int: [UInt8]] = [:]
    private var spare: [[UInt8]] = []
    private var isWriting = false
    private(set) var error: Error?

    init(window: Int) { self.window = window }

    /// The next frame to render, once it is within `window` of the writer; nil when done or failed.
    func claim(below count: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil && nextToClaim < count && nextToClaim >= nextToWrite + window { condition.wait() }
        guard error == nil, nextToClaim < count else { return nil }
        defer { nextToClaim += 1 }
        return nextToClaim
    }

    /// Counts a frame that needs no ordered delivery; returns the number done.
    func finishUnordered() -> Int {
        condition.lock()
        defer { condition.unlock() }
        nextToWrite += 1
        condition.broadcast()
        return nextToWrite
    }

    func takeBuffer() -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast() ?? []
    }

    /// Hands frame `index` over; whoever holds the next frame to write drains every consecutive
    /// ready frame into the sink, outside the lock.
    func deliver(_ index: Int, _ buffer: [UInt8], to sink: (UnsafeRawBufferPointer) throws -> Void,
                 progress: (Int) -> Void) throws {
        condition.lock()
        ready[index] = buffer
        guard !isWriting else { condition.unlock(); return }
        isWriting = true
        while error == nil, let next = ready.removeValue(forKey: nextToWrite) {
            condition.unlock()
            do {
                try next.withUnsafeBytes { try sink($0) }
            } catch {
                condition.lock()
                isWriting = false
                condition.unlock()
                throw error
            }
            condition.lock()
            nextToWrite += 1
            spare.append(next)
            progress(nextToWrite)
            condition.broadcast()
        }
        isWriting = false
        condition.unlock()
    }

    func fail(_ failure: Error) {
        condition.lock()
        if error == nil { error = failure }
        condition.broadcast()
        condition.unlock()
    }
}
