import MIDIVizCore
import Testing

@Suite(.timeLimit(.minutes(30))) struct FrameRateTests {
    @Test func readsWholeRatesFractionsAndDecimals() throws {
        let ntsc = try #require(FrameRate(numerator: 30000, denominator: 1001))
        #expect(FrameRate(text: "60") == FrameRate(60))
        #expect(FrameRate(text: "30000/1001") == ntsc && FrameRate(text: "29.97") == ntsc)
        // A broadcast rate by its value, however written.
        #expect(FrameRate(text: "29.970") == ntsc && FrameRate(text: "029.97") == ntsc && FrameRate(text: "59.940") == FrameRate(text: "59.94"))
        #expect(FrameRate(text: "29.9700") == ntsc && FrameRate(text: "60.0000") == FrameRate(60) && FrameRate(text: "29.97000000") == nil)
        #expect(FrameRate(text: "59.94") == FrameRate(numerator: 60000, denominator: 1001))
        #expect(FrameRate(text: "23.976") == FrameRate(numerator: 24000, denominator: 1001) && FrameRate(text: "23.98") == FrameRate(text: "23.976"))
        #expect(FrameRate(text: "12.5") == FrameRate(numerator: 25, denominator: 2))
        // Reduced: 60/2 is 30.
        #expect(FrameRate(text: "60/2") == FrameRate(30) && FrameRate(text: "60.0") == FrameRate(60))
        for bad in ["", "abc", "30/0", "-5", "+30", " 30", "1e3", "29.9.7", "30/", "/30", "30/1/1", "29.9701", "0x1E", "99999999"] {
            #expect(FrameRate(text: bad) == nil, "\(bad)")
        }
    }

    @Test func writesWhatItReadsBack() throws {
        for text in ["60", "30000/1001", "25/2", "24000/1001", "1"] {
            let rate = try #require(FrameRate(text: text))
            #expect(rate.text == text && FrameRate(text: rate.text) == rate)
        }
        #expect(FrameRate(text: "29.97")?.description == "29.97" && FrameRate(text: "12.5")?.description == "12.5")
        #expect(FrameRate(60).description == "60" && FrameRate(text: "7/3")?.description == "7/3")
    }

    /// A whole rate gives the times it always did (index / rate), bit for bit: the frames of
    /// every render at a whole rate are unchanged.
    @Test func wholeRatesKeepTheirTimes() {
        for fps in [1, 10, 24, 25, 30, 50, 60, 120, 240] {
            let rate = FrameRate(fps)
            for index in [0, 1, 7, 59, 60, 61, 1_000, 10_799, 123_457] {
                #expect(rate.seconds(ofFrame: index).bitPattern == (Double(index) / Double(fps)).bitPattern)
                let seconds = Double(index) * 0.013_7
                #expect(rate.frames(in: seconds).bitPattern == (seconds * Double(fps)).bitPattern)
            }
        }
    }

    /// Frame times at 30000/1001 are computed from the fraction: frame 30,000 is 1001 s in,
    /// exactly, with no drift from adding up frame lengths.
    @Test func broadcastFrameTimesDoNotDrift() throws {
        let rate = try #require(FrameRate(text: "30000/1001"))
        #expect(rate.seconds(ofFrame: 30_000) == 1001 && rate.seconds(ofFrame: 300_000) == 10_010)
        var settings = RenderSettings()
        settings.frameRate = rate
        #expect(settings.frameIndex(atSeconds: 1001) == 30_000 && settings.frameCount(seconds: 1001) == 30_000)
        #expect(settings.frameCount(seconds: 1001.001) == 30_001)
    }
}
