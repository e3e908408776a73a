import Foundation
import Synchronization
import Testing

@testable import MIDIVizIO

/// A C library's log lines belong to the thread that called it: jobs running at once each drain
/// only their own (they shared one buffer before, so one job could report another's error).
@Suite(.timeLimit(.minutes(30)))
struct CapturedLinesTests {
    @Test func eachThreadDrainsOnlyItsOwnLines() {
        let captured = CapturedLines(limit: 1_000)
        let rounds = 200
        let mixed = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<rounds {
                captured.append("worker \(worker) line \(round)a")
                captured.append("worker \(worker) line \(round)b")
                let lines = captured.drain()
                if lines != ["worker \(worker) line \(round)a", "worker \(worker) line \(round)b"] {
                    mixed.withLock { $0.append(worker) }
                }
            }
        }
        #expect(mixed.withLock { $0 }.isEmpty)
        #expect(captured.drain().isEmpty)
    }

    @Test func aThreadKeepsItsLastLinesUpToTheLimit() {
        let captured = CapturedLines(limit: 3)
        for line in 1...5 { captured.append("line \(line)") }
        #expect(captured.drain() == ["line 3", "line 4", "line 5"])
        #expect(captured.drain().isEmpty)
    }
}
