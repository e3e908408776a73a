import MIDIVizEngine
import Testing

/// `RenderSegment`'s shares: bounded numbers, exact arithmetic for any frame count.
@Suite(.timeLimit(.minutes(30)))
struct RenderSegmentTests {
    @Test func numbersOutsideTheirRangeAreRefused() {
        #expect(RenderSegment(index: 0, count: 3) == nil)
        #expect(RenderSegment(index: 4, count: 3) == nil)
        #expect(RenderSegment(index: 1, count: 0) == nil)
        #expect(RenderSegment(index: -1, count: 3) == nil)
        #expect(RenderSegment(index: Int.max, count: Int.max) == nil)
        #expect(RenderSegment(index: 1, count: RenderSegment.maximumCount + 1) == nil)
        #expect(RenderSegment(index: RenderSegment.maximumCount, count: RenderSegment.maximumCount) != nil)
    }

    @Test(arguments: [0, 1, 7, 1000, 1 << 40, Int.max / 3, Int.max])
    func sharesFollowOneAnotherAndAddUpWithoutOverflow(total: Int) throws {
        for count in [1, 3, 7, RenderSegment.maximumCount] {
            let shares = try Set([1, 2, count / 2, count - 1, count].filter { (1...count).contains($0) }).sorted().map { index in
                (index, try #require(RenderSegment(index: index, count: count)).frames(of: total))
            }
            for (index, share) in shares {
                #expect(share.count == total / count || share.count == total / count + 1, "share \(index) of \(count) of \(total)")
                if index == 1 { #expect(share.first == 0) }
                if index == count { #expect(share.first + share.count == total, "the last share ends at the total") }
                if index < count, let next = shares.first(where: { $0.0 == index + 1 }) {
                    #expect(share.first + share.count == next.1.first, "share \(index + 1) starts where \(index) ends")
                }
            }
        }
    }

    /// A part's tag claiming more segments than a render can make is no part: join would look
    /// for N - 1 missing parts (a hang at N = Int.max).
    @Test func aPartClaimingMoreSegmentsThanARenderMakesIsNoPart() {
        let part = SegmentIdentity(
            songSHA256: "s", optionsSHA256: "o", encoding: "crf 20 veryfast", index: 1, count: 3, firstFrame: 0, frames: 10, totalFrames: 30)
        #expect(SegmentIdentity(metadataText: part.metadataText) == part)
        for count in [RenderSegment.maximumCount + 1, Int.max] {
            var claimed = part
            claimed.count = count
            #expect(SegmentIdentity(metadataText: claimed.metadataText) == nil, "\(count)")
        }
    }
}
