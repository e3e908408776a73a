import Algorithms
import Foundation
import MIDIVizCore
import MIDIVizIO

/// Rasterizing cost per frame on one core, per style: `midiviz-bench SONG.mid [WIDTHxHEIGHT] [FRAMES]`.
/// Also the yuv420p conversion (whole frame, changed tiles) and a frame with 10,000 notes sounding.
/// Renders FRAMES frames spread evenly over the song (shapes + drawing, no PNG) and prints the
/// mean and the 95th percentile in ms; then the roll and keyboard on the song played ten times
/// over, to show that their cost follows what is on screen, not the song's length.
@main
enum FrameLoopBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: midiviz-bench SONG.mid [WIDTHxHEIGHT] [FRAMES]")
            exit(64)
        }
        let size = (arguments.count > 2 ? arguments[2] : "1920x1080").split(separator: "x").compactMap { Int($0) }
        let sampleCount = arguments.count > 3 ? Int(arguments[3]) ?? 600 : 600
        let song = try SongLoader.load(path: arguments[1])
        let font = try FontRasterizer()
        print(
            "song: \(arguments[1]) (\(song.notes.count) notes, \(String(format: "%.1f", song.durationSeconds)) s); \(size[0])x\(size[1]), \(sampleCount) frames per style, one core"
        )
        // BENCH_STYLES="roll keyboard" measures only those styles (the length check is for roll
        // and keyboard); BENCH_STYLES=none only the length check.
        let only = ProcessInfo.processInfo.environment["BENCH_STYLES"].map { Set($0.split(separator: " ").map(String.init)) }
        if arguments.count > 4, arguments[4] == "features" {
            measureFeatures(song: song, width: size[0], height: size[1], samples: sampleCount, font: font, only: only)
            return
        }
        for style in RenderSettings.Style.allCases where only?.contains(style.rawValue) ?? true {
            for scheme in [ColorScheme.rainbow] {
                let settings = RenderSettings(width: size[0], height: size[1], style: style, scheme: scheme, chords: true, title: song.tracks.first?.name)
                // BENCH_ONLY=inorder: only the frames in order (for a profile of them).
                if ProcessInfo.processInfo.environment["BENCH_ONLY"] == "inorder" {
                    let inOrder = measureInOrder(song: song, settings: settings, font: font, frames: sampleCount)
                    print(String(format: "raster %-8@ in order %.2f ms/frame; %.0f shapes drawn a frame", style.rawValue, inOrder.mean, inOrder.shapes))
                    continue
                }
                let (mean, p95, maximum, shapes) = measure(song: song, settings: settings, font: font, samples: sampleCount)
                print(
                    String(
                        format: "raster %-8@ mean %.2f ms/frame  p95 %.2f ms  max %.2f ms  (%.0f shapes/frame)",
                        style.rawValue, mean, p95, maximum, shapes))
                let inOrder = measureInOrder(song: song, settings: settings, font: font, frames: sampleCount)
                print(
                    String(
                        format:
                            "raster %-8@ in order %.2f ms/frame (every second of %d frames from the middle, as one of two workers; %d of %d moved, %.0f%% of those drawn anew; %.0f shapes drawn a frame)",
                        style.rawValue, inOrder.mean, 2 * sampleCount, inOrder.moved, inOrder.count, 100 * inOrder.drawnAnew, inOrder.shapes))
                let conversion = measureConversion(song: song, settings: settings, font: font, frames: sampleCount)
                print(
                    String(
                        format: "yuv420p  %-8@ whole frame %.2f ms; changed tiles only %.2f ms (%.0f%% of the picture)",
                        style.rawValue, conversion.whole, conversion.changed, 100 * conversion.fraction))
            }
        }
        if ProcessInfo.processInfo.environment["BENCH_ONLY"] == "inorder" { return }
        // BENCH_ONLY=styles: only the styles above (the black-MIDI part of scripts/bench).
        if ProcessInfo.processInfo.environment["BENCH_ONLY"] == "styles" {
            printNotesOnScreen(song: song, samples: sampleCount)
            return
        }
        // Black MIDI: 10,000 notes sounding at once, in every style.
        print("dense frame: 10,000 notes sounding at once (every key of the piano, about 114 each), \(size[0])x\(size[1]), chords on, medians of 30 frames")
        for style in RenderSettings.Style.allCases where only?.contains(style.rawValue) ?? true {
            let settings = RenderSettings(width: size[0], height: size[1], style: style, chords: true)
            let (median, shapes) = measureDense(song, settings: settings, font: font, notes: 10_000)
            print(String(format: "raster %-8@ 10,000 notes on screen: %.2f ms/frame (%.0f shapes)", style.rawValue, median, shapes))
        }
        // The same music ten times over: ten times the notes and the length. The frames are the
        // same moments of the music, taken from the last copy, so only the length differs; in
        // runs of a second of consecutive frames, as a render reads them (a frame jumping to a
        // random moment of a long song waits on memory the previous frames did not touch).
        let repeated = repeating(song, times: 10)
        print(
            String(
                format:
                    "length check: the song x10 (%d notes, %.0f s), the same %d moments (from 10 s in) taken from its last copy, in 1-s runs taken in turn (medians)",
                repeated.notes.count, repeated.durationSeconds, sampleCount))
        for style in [RenderSettings.Style.roll, .keyboard] where only?.contains(style.rawValue) ?? true || only == ["none"] {
            let settings = RenderSettings(width: size[0], height: size[1], style: style, chords: true)
            let shift = Int((9 * song.durationSeconds * settings.frameRate.perSecond).rounded())
            let fonts = font.textFonts(canvasSide: settings.textSide)
            let short = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: fonts)
            let long = FrameRenderer(scene: Scene(song: repeated, settings: settings), fonts: fonts)
            var once: [Double] = [], tenTimes: [Double] = []
            var shapes: (once: Double, tenTimes: Double) = (0, 0)
            for _ in 0..<3 {  // the least median of each of three passes is kept
                // From 10 s in: before that the last copy still shows the end of the one before.
                let pass = measurePaired(short, long, frameShift: shift, samples: sampleCount, skip: settings.frameIndex(atSeconds: 10), run: 60)
                once.append(pass.first)
                tenTimes.append(pass.second)
                shapes = pass.shapes
            }
            print(
                String(
                    format: "raster %-8@ x1 %.2f ms/frame, x10 %.2f ms/frame (ratio %.2f; %.0f and %.0f shapes/frame)", style.rawValue,
                    once.min()!, tenTimes.min()!, tenTimes.min()! / once.min()!, shapes.once, shapes.tenTimes))
        }
    }

    /// How many notes the keyboard style shows at once (from a note's entry at the top, its
    /// window before it sounds, to its end) and how many sound at once, averaged over the frames
    /// measured.
    static func printNotesOnScreen(song: Song, samples: Int) {
        let window = RenderSettings(style: .keyboard).windowSeconds
        let starts = song.notes.map(\.startSeconds).sorted(), ends = song.notes.map(\.endSeconds).sorted()
        func count(_ values: [Double], upTo time: Double) -> Int { values.partitioningIndex { $0 > time } }
        var onScreen = 0, sounding = 0
        for sample in 0..<samples {
            let time = song.durationSeconds * Double(sample) / Double(samples)
            onScreen += count(starts, upTo: time + window) - count(ends, upTo: time)
            sounding += count(starts, upTo: time) - count(ends, upTo: time)
        }
        print(
            String(
                format: "notes on screen (keyboard, %.0f-s window) %.0f on average; sounding at once %.0f", window, Double(onScreen) / Double(samples),
                Double(sounding) / Double(samples)))
    }

    /// Each style plain and with every option of the music features on (`--labels --lyrics
    /// --effects`, two tracks coloured, one hidden; pedals are drawn whenever the song has them),
    /// the same frames in turn: medians in ms per frame. The song gets a syllable of lyrics every
    /// quarter second when it has none, so that the karaoke display is drawn.
    static func measureFeatures(song: Song, width: Int, height: Int, samples: Int, font: FontRasterizer, only: Set<String>?) {
        var song = song
        if Lyrics(song: song).isEmpty {
            let words = ["la ", "li ", "lo ", "lu "]
            song.texts = stride(from: 0.0, to: song.durationSeconds, by: 0.25).enumerated().map { index, seconds in
                TextEvent(seconds: seconds, track: 0, kind: .lyric, bytes: Array((words[index % 4] + (index % 16 == 15 ? "\r" : "")).utf8))
            }
        }
        let tracks = song.tracks.indices.filter { song.tracks[$0].noteCount > 0 }
        print(
            "features: \(song.notes.count) notes, \(Lyrics(song: song).syllables.count) syllables; \(width)x\(height), \(samples) frames per style, one core (medians, the two in turn)"
        )
        for style in RenderSettings.Style.allCases where only?.contains(style.rawValue) ?? true {
            let plain = RenderSettings(
                width: width, height: height, style: style, scheme: .fire, chords: true,
                title: song.tracks.first?.name)
            var full = plain
            // BENCH_FEATURES="labels effects" turns on only those.
            let features = ProcessInfo.processInfo.environment["BENCH_FEATURES"].map { Set($0.split(separator: " ").map(String.init)) }
            let wants: (String) -> Bool = { features?.contains($0) ?? true }
            if wants("labels") { full.labels = .names }
            full.lyrics = wants("lyrics")
            full.effects = wants("effects")
            if tracks.count > 2, wants("tracks") {
                full.trackLook.trackColors = [tracks[0]: RGBA(1, 0.53, 0), tracks[1]: RGBA(0.3, 0.7, 1)]
                full.trackLook.hiddenTracks = [tracks[2]]
            }
            let fonts = font.textFonts(canvasSide: plain.textSide, extra: Scene.charactersBeyondLatin1(song: song, settings: full))
            let first = FrameRenderer(scene: Scene(song: song, settings: plain), fonts: fonts)
            let second = FrameRenderer(scene: Scene(song: song, settings: full), fonts: fonts)
            let result = measurePaired(first, second, frameShift: 0, samples: samples, skip: 0, run: 30)
            print(
                String(
                    format: "features %-8@ plain %.2f ms/frame, with every feature %.2f ms/frame (+%.2f ms; %.0f and %.0f shapes/frame)",
                    style.rawValue, result.first, result.second, result.second - result.first, result.shapes.0, result.shapes.1))
        }
    }

    /// Renders `samples` frames spread over the song and times each.
    static func measure(song: Song, settings: RenderSettings, font: FontRasterizer, samples: Int)
        -> (mean: Double, p95: Double, max: Double, shapes: Double)
    {
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: font.textFonts(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        var times: [Double] = []
        var shapeCount = 0
        for sample in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            renderer.render(frame: sample * scene.frameCount / samples, in: &workspace)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            shapeCount += workspace.shapeCount
        }
        times.sort()
        return (
            times.reduce(0, +) / Double(times.count), times[times.count * 95 / 100], times.last!,
            Double(shapeCount) / Double(samples)
        )
    }

    /// Frames as a render draws them: every second frame of `2 × frames` consecutive ones from
    /// the middle of the song, as one of two workers does. Mean ms, how many of the frames were
    /// drawn over the one before moved, and the mean share of those drawn anew.
    static func measureInOrder(
        song: Song, settings: RenderSettings, font: FontRasterizer, frames: Int
    ) -> (mean: Double, count: Int, moved: Int, drawnAnew: Double, shapes: Double) {
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: font.textFonts(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        let first = max(0, scene.frameCount / 2 - frames)
        renderer.render(frame: first, in: &workspace)
        var total = 0.0, drawnAnew = 0.0, count = 0, moved = 0, shapes = 0
        for frame in stride(from: first + 2, to: min(scene.frameCount, first + 2 * frames), by: 2) {
            let start = DispatchTime.now().uptimeNanoseconds
            renderer.render(frame: frame, in: &workspace)
            total += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            count += 1
            shapes += workspace.shapeCount
            guard workspace.movedLastFrame else { continue }
            drawnAnew += workspace.scrolledDirtyFraction
            moved += 1
        }
        return (total / Double(max(1, count)), count, moved, drawnAnew / Double(max(1, moved)), Double(shapes) / Double(max(1, count)))
    }

    /// The yuv420p conversion, per frame: of the whole picture, and of only the tiles the frame
    /// changed, as one of two workers does it (every second frame of `frames`
    /// consecutive ones from the middle of the song). Medians in ms, and the mean changed share.
    static func measureConversion(song: Song, settings: RenderSettings, font: FontRasterizer, frames: Int)
        -> (whole: Double, changed: Double, fraction: Double)
    {
        let scene = Scene(song: song, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: font.textFonts(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        var planes = YUV420Planes(), whole: [UInt8] = []
        var times: (whole: [Double], changed: [Double]) = ([], [])
        var fraction = 0.0
        func time(_ body: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        let first = max(0, scene.frameCount / 2 - frames)
        for frame in stride(from: first, to: min(scene.frameCount, first + 2 * frames), by: 2) {
            renderer.render(frame: frame, in: &workspace)
            times.whole.append(time { YUV420.convert(workspace.canvas, into: &whole) })
            times.changed.append(time { planes.update(from: workspace.canvas, changed: workspace.changed) })
            fraction += workspace.changed.changedFraction
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return (median(times.whole), median(times.changed), fraction / Double(times.whole.count))
    }

    /// `song` with its notes replaced by `count` notes all sounding from 4 s to 6 s (starts and
    /// ends spread over 2 s around them, pitches across the piano): the median time of 30
    /// frames between 4 s and 6 s, and the shapes a frame draws.
    static func measureDense(_ song: Song, settings: RenderSettings, font: FontRasterizer, notes count: Int) -> (Double, Double) {
        var dense = song
        dense.notes = (0..<count).map { index in
            let spread = Double(index) / Double(count)
            return Note(
                startSeconds: 2 + 2 * spread, endSeconds: 6 + 2 * spread, pitch: UInt8(21 + index % 88),
                velocity: UInt8(40 + index % 80), channel: UInt8(index % 16 == 9 ? 0 : index % 16), track: 0)
        }.sorted { $0.startSeconds < $1.startSeconds }
        dense.durationSeconds = max(dense.durationSeconds, 10)
        let scene = Scene(song: dense, settings: settings)
        let renderer = FrameRenderer(scene: scene, fonts: font.textFonts(canvasSide: settings.textSide))
        var workspace = renderer.makeWorkspace()
        var times: [Double] = []
        var shapes = 0
        for frame in 0..<30 {
            let start = DispatchTime.now().uptimeNanoseconds
            renderer.render(at: 4.05 + Double(frame) / 16, in: &workspace)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            shapes += workspace.shapeCount
        }
        return (times.sorted()[times.count / 2], Double(shapes) / 30)
    }

    /// The same frames drawn by two renderers (by `second` shifted `frameShift` frames later), run
    /// by run in turn, so that a busy moment of the machine falls on both alike: each one's
    /// median time per frame and shapes per frame.
    static func measurePaired(_ first: FrameRenderer, _ second: FrameRenderer, frameShift: Int, samples: Int, skip: Int, run: Int)
        -> (first: Double, second: Double, shapes: (Double, Double))
    {
        var workspaces = [first.makeWorkspace(), second.makeWorkspace()]
        var times: [[Double]] = [[], []], shapeCounts = [0, 0]
        let runs = max(1, samples / run)
        let frameCount = first.scene.frameCount - skip
        for runIndex in 0..<runs {
            let firstFrame = skip + runIndex * frameCount / runs
            // Which goes first alternates from run to run.
            for side in runIndex % 2 == 0 ? [0, 1] : [1, 0] {
                let renderer = side == 0 ? first : second
                for offset in 0..<run {
                    let start = DispatchTime.now().uptimeNanoseconds
                    renderer.render(frame: firstFrame + offset + (side == 0 ? 0 : frameShift), in: &workspaces[side])
                    times[side].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    shapeCounts[side] += workspaces[side].shapeCount
                }
            }
        }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        return (medians[0], medians[1], (Double(shapeCounts[0]) / Double(times[0].count), Double(shapeCounts[1]) / Double(times[1].count)))
    }

    /// `song` played `times` times in a row (its duration must be its end tick's time).
    static func repeating(_ song: Song, times: Int) -> Song {
        var result = song
        /// Each copy of `items` moved later by a song's length.
        func repeated<Item>(_ items: [Item], _ move: (inout Item, _ ticks: Int, _ seconds: Double) -> Void) -> [Item] {
            (0..<times).flatMap { copy in
                items.map { item in
                    var item = item
                    move(&item, copy * song.endTick, Double(copy) * song.durationSeconds)
                    return item
                }
            }
        }
        result.notes = repeated(song.notes) { note, _, seconds in
            note.startSeconds += seconds
            note.endSeconds += seconds
        }
        // The tempo map and meters too, so that each copy has the same grid.
        result.tempoChanges = repeated(song.tempoChanges) { change, ticks, seconds in
            change.tick += ticks
            change.seconds += seconds
        }
        result.timeSignatures = repeated(song.timeSignatures) { signature, ticks, seconds in
            signature.tick += ticks
            signature.seconds += seconds
        }
        result.durationSeconds = song.durationSeconds * Double(times)
        result.endTick = song.endTick * times
        return result
    }
}
