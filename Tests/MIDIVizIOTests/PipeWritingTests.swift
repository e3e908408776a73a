import Foundation
import Testing

@testable import MIDIVizIO

@Suite(.timeLimit(.minutes(30))) struct PipeWritingTests {
    /// Writes `frames` frames of a pattern through a 64 KiB pipe to a reader slower than the
    /// writer, scribbling over the buffer as soon as each write returns; returns whether the
    /// reader got every frame as it was when written.
    func readerGetsTheFramesAsWritten(copiedTail: (_ capacity: Int) -> Int) throws -> Bool {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let capacity = Int(fcntl(ends[1], PipeWriting.setPipeSize, 65_536))
        try #require(capacity > 0)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let frameSize = 300_000, frames = 8
        let pattern = { (frame: Int, index: Int) in UInt8(truncatingIfNeeded: index &* 31 &+ frame &* 7 &+ index >> 9) }

        let received = ReceivedBytes()
        let reader = Thread { [readEnd = ends[0]] in
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                usleep(500)
                let count = read(readEnd, &chunk, chunk.count)
                if count <= 0 { break }
                received.append(chunk[0..<count])
            }
            received.finish()
        }
        reader.start()

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: frameSize, alignment: 4096)
        defer { buffer.deallocate() }
        for frame in 0..<frames {
            for index in 0..<frameSize { buffer[index] = pattern(frame, index) }
            let outcome = PipeWriting.spliceAll(
                ends[1], buffer.baseAddress!, count: frameSize,
                copiedTail: copiedTail(capacity), timeoutSeconds: 10)
            guard case .written = outcome else {
                Issue.record("frame \(frame): \(outcome)")
                return false
            }
            buffer.initializeMemory(as: UInt8.self, repeating: 0xEE)  // the caller's again
        }
        close(ends[1])
        let bytes = received.wait()
        close(ends[0])
        try #require(bytes.count == frames * frameSize)
        return (0..<frames).allSatisfy { frame in (0..<frameSize).allSatisfy { bytes[frame * frameSize + $0] == pattern(frame, $0) } }
    }

    /// The video frames go to ffmpeg mostly by reference (`vmsplice`), with the last pipe's
    /// worth copied: by the time a write returns, the reader has read every byte given by
    /// reference, so the worker may draw its next frame into the same planes.
    @Test func framesHandedByReferenceAreReadBeforeTheWriterChangesThem() throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(try readerGetsTheFramesAsWritten { $0 + pageSize })
        // The check can fail: given all by reference, the tail the reader has not reached yet
        // is read after the writer scribbled over it.
        #expect(try !readerGetsTheFramesAsWritten { _ in 0 })
    }
}

/// Bytes a reader thread collects, and a wait for its end.
private final class ReceivedBytes: @unchecked Sendable {
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var done = false

    func append(_ chunk: ArraySlice<UInt8>) {
        condition.lock()
        bytes.append(contentsOf: chunk)
        condition.unlock()
    }

    func finish() {
        condition.lock()
        done = true
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return bytes
    }
}
