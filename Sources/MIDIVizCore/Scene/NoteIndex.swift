/// Finds the notes visible at a time without scanning the song: each note is listed in every
/// one-second bucket its visible span [from, until] touches, so a query reads
/// one bucket, whose size follows the notes on screen, not the notes in the file.
public struct NoteIndex: Sendable {
    public static let bucketSeconds = 1.0
    private let buckets: [[Int32]]
    private let spans: [(start: Double, end: Double)]

    /// - Parameters:
    ///   - visibleFrom: the time a note comes into view (its start, or earlier in styles that
    ///     show what is coming).
    ///   - visibleUntil: the time a note stops being visible (its end plus a fade).
    public init(notes: [Note], visibleFrom: (Note) -> Double = { $0.startSeconds }, visibleUntil: (Note) -> Double) {
        var spans: [(start: Double, end: Double)] = []
        spans.reserveCapacity(notes.count)
        var lastBucket = 0
        for note in notes {
            let from = visibleFrom(note)
            let span = (from, max(from, visibleUntil(note)))
            spans.append(span)
            lastBucket = max(lastBucket, Int(span.1 / Self.bucketSeconds))
        }
        var buckets = [[Int32]](repeating: [], count: lastBucket + 1)
        for (index, span) in spans.enumerated() {
            let first = max(0, Int(span.start / Self.bucketSeconds)), last = max(first, Int(span.end / Self.bucketSeconds))
            for bucket in first...last { buckets[bucket].append(Int32(index)) }
        }
        self.buckets = buckets
        self.spans = spans
    }

    /// Calls `body` with the index of each note visible at `seconds`, in song order.
    @inlinable
    public func forEachVisible(at seconds: Double, _ body: (Int) -> Void) {
        visit(at: seconds, body)
    }

    @usableFromInline
    func visit(at seconds: Double, _ body: (Int) -> Void) {
        guard seconds >= 0 else { return }
        let bucket = Int(seconds / Self.bucketSeconds)
        guard bucket < buckets.count else { return }
        for index in buckets[bucket] {
            let span = spans[Int(index)]
            if span.start <= seconds && seconds <= span.end { body(Int(index)) }
        }
    }
}
