import MIDIVizCore
import MIDIVizIO

extension RenderOptions {
    /// The longest side of a frame.
    public static let maximumSide = 7680

    /// Checks each option's value and what options say together; throws the first problem.
    /// - Parameter forVideo: whether the frames go to a video (or raw yuv420p), whose 4:2:0
    ///   chroma needs an even width and height; PNG frames and posters may be any size.
    public func validate(forVideo: Bool = true) throws(OptionError) {
        for declaration in Self.declarations {
            if let problem = declaration.problem(in: self) { throw problem }
        }
        if forVideo { try size.checkEven() }
        if backgroundImage != nil && background == .transparent { throw .contradiction("background-image", "background transparent") }
        if backgroundVideo != nil && background == .transparent { throw .contradiction("background-video", "background transparent") }
        if backgroundVideo != nil && backgroundImage != nil { throw .contradiction("background-video", "background-image") }
        // A picture covers the whole frame: a colour under it would never show.
        if case .color(let color) = background {
            if backgroundImage != nil { throw .contradiction("background-image", "background \(color.hex)") }
            if backgroundVideo != nil { throw .contradiction("background-video", "background \(color.hex)") }
        }
        // Drawing only a track and hiding it draws none of it.
        if let track = onlyTracks.first(where: hiddenTracks.contains) {
            throw .contradiction("only-track \(track)", "hide-track \(track)")
        }
    }

    /// Checks the options as `validate` does, where options given later win: when two
    /// contradict and only one of them is in `given` (the command line's over a config file's,
    /// a manifest line's over the command line's), the other is put back to its default.
    /// - Parameters:
    ///   - given: the long names of the options that win.
    ///   - forVideo: whether the frames go to a video, whose sides must be even.
    public mutating func settle(preferring given: Set<String>, forVideo: Bool = true) throws(OptionError) {
        while true {
            do throws(OptionError) {
                try validate(forVideo: forVideo)
                return
            } catch .contradiction(let first, let second) {
                let names = [first, second].map(OptionError.optionName)
                guard let loser = names.first(where: { !given.contains($0) }), names.contains(where: given.contains),
                    let declaration = Self.declaration(loser), !declaration.isDefault(in: self)
                else { throw .contradiction(first, second) }
                declaration.reset(in: &self)
            }
        }
    }

    /// The colours and visibility per track and channel.
    package var trackLook: TrackLook {
        var look = TrackLook()
        for entry in trackColors { look.trackColors[entry.number] = entry.color }
        for entry in channelColors { look.channelColors[entry.number] = entry.color }
        look.hiddenTracks = Set(hiddenTracks)
        look.hiddenChannels = Set(hiddenChannels)
        look.onlyTracks = Set(onlyTracks)
        return look
    }

    /// The frames' settings for `song` (whose first track's name is the default title), with
    /// the background image read and the sheet music engraved when shown.
    /// - Parameters:
    ///   - songName: the song's file, for messages about its sheet music.
    ///   - forVideo: whether the frames go to a video, whose sides must be even.
    public func settings(for song: Song, songName: String = "the song", forVideo: Bool = false) throws(RenderError) -> RenderSettings {
        do { try validate(forVideo: forVideo) } catch { throw .option(error) }
        var color: RGBA?
        if case .color(let chosen) = background { color = chosen }
        var settings = RenderSettings(
            width: size.width, height: size.height, style: style, scheme: scheme,
            colorBy: colorBy, barsLayout: bars, speed: speed, grid: grid, background: color,
            window: window, keys: keys, chords: chords, title: title ?? song.defaultTitle)
        settings.frameRate = fps
        settings.transparent = background == .transparent
        let named = trackColors.map { ("track-color", $0.number) } + hiddenTracks.map { ("hide-track", $0) } + onlyTracks.map { ("only-track", $0) }
        for (option, track) in named where track >= song.tracks.count {
            throw .usage(
                "--\(option) \(track): the song has \(song.tracks.count) track\(song.tracks.count == 1 ? "" : "s") (0 to \(song.tracks.count - 1), as `midiviz info` lists them)"
            )
        }
        settings.trackLook = trackLook
        settings.labels = labels
        settings.lyrics = lyrics
        settings.effects = effects
        settings.split = split
        settings.velocity = velocity
        settings.direction = direction
        if let backgroundImage {
            settings.backgroundImage = try BackgroundPicture.load(backgroundImage, width: size.width, height: size.height, dim: backgroundDim)
        }
        settings.sheetBand = sheet
        if SheetBand.isShown(settings: settings) {
            do { settings.sheet = try SheetEngraver.engrave(song: song.showing(settings.trackLook), name: songName, settings: settings) } catch {
                throw RenderError(error)
            }
        }
        return settings
    }

    /// How many of `song`'s notes a render with these options leaves out: those outside
    /// `keys` as two keys (the tracks shown counted only).
    package func notesOutsideKeys(of song: Song) -> Int {
        keys.notesOutside(song.showing(trackLook))
    }

    /// The warning for a sound that missed the `--loudness` target by more than 0.1 LU (it
    /// meets it within 0.05 when it can): a target near 0 LUFS, where the limiter holding the
    /// true-peak ceiling caps how loud it gets (more gain stops once it brings little). Nil when
    /// on target, off or unmeasured.
    package func loudnessWarning(_ measured: LoudnessMeasurement?) -> String? {
        guard let measured, measured.measuredLUFS.isFinite, case .target(let target) = loudness, abs(measured.resultLUFS - target) > 0.1 else {
            return nil
        }
        return String(
            format: "--loudness %@: the sound reached %.1f LUFS at %.1f dBTP (%+.1f dB%@), not the %@ asked", target.optionText,
            measured.resultLUFS, measured.resultTruePeakDBTP, measured.gainDB, measured.limiterThresholdDB != nil ? " and limited" : "",
            target.optionText)
    }

    /// What a render of `song` with these options leaves out, then the command's own `also`,
    /// then what the loader repaired in `song` (a file cut short, a missing End-of-Track: what
    /// `info` lists), one line each, worded for the command line: said before the render
    /// starts (not an error), and in a batch's report. The render's own come first, as the
    /// song's may be many.
    package func warnings(for song: Song, also: [String?] = []) -> [String] {
        renderWarnings(for: song) + also.compactMap { $0 } + song.warnings
    }

    /// What a render of `song` with these options cannot show: a song with no notes (a blank
    /// video, silence: most often a file cut short before its first), the notes `--keys` leaves out.
    package func renderWarnings(for song: Song) -> [String] {
        if song.notes.isEmpty { return ["the song has no notes: none are drawn, and none sound"] }
        let outside = notesOutsideKeys(of: song)
        guard outside > 0 else { return [] }
        return ["--keys \(keys.optionText): \(outside) note\(outside == 1 ? "" : "s") outside the keys, not drawn"]
    }

    /// The options `given` (by name, as the command line gave them) that this render leaves
    /// unused, each with why: a look of other styles, a background's settings without one, a
    /// video setting for a container that takes none, `--mute-hidden` with nothing hidden.
    /// Taken without a word, they would look as if they had done something. Nil when none.
    package func unusedOptionsWarning(given: [String], container: VideoContainer?) -> String? {
        /// The styles that have a property, for the message: `roll and keyboard only`.
        func only(_ has: (RenderSettings.Style) -> Bool) -> String {
            let names = RenderSettings.Style.allCases.filter(has).map(\.rawValue)
            return (names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!) + " only"
        }
        let encoder = container.map { "a .\($0.rawValue) takes none" } ?? "no video is made"
        let unused = given.compactMap { name -> String? in
            let why: String? =
                switch name {
                case "window" where !style.scrolls: only(\.scrolls)
                case "direction" where !style.turns: only(\.turns)
                case "bars" where style.rawValue != "bars": "--style bars only"
                case "background-dim" where backgroundImage == nil && backgroundVideo == nil: "no --background-image or --background-video"
                case "background-video-end" where backgroundVideo == nil: "no --background-video"
                case "crf" where container != .mp4 && container != .webm: encoder
                case "preset" where container != .mp4: container == .webm ? "x264's, and a .webm is VP9" : encoder
                case "mute-hidden" where hiddenTracks.isEmpty && hiddenChannels.isEmpty && onlyTracks.isEmpty: "nothing is hidden"
                default: nil
                }
            return why.map { "--\(name) (\($0))" }
        }
        guard !unused.isEmpty else { return nil }
        return "\(unused.joined(separator: ", ")): no effect on this render"
    }

    /// The warning when a video in `container` carries the sound at another rate than
    /// `--sample-rate` (ffmpeg resamples it for the codec); nil when it keeps it, or has none.
    package func sampleRateWarning(for container: VideoContainer?) -> String? {
        guard let container, container.hasSound, !noAudio else { return nil }
        let carried = container.soundSampleRate(madeAt: sampleRate)
        guard carried != sampleRate else { return nil }
        let codec = container == .mp4 ? "AAC" : "Opus"
        return "--sample-rate \(sampleRate): a .\(container.rawValue)'s \(codec) sound is \(carried) Hz, resampled (a WAV or .mov keeps \(sampleRate))"
    }

    /// The synthesizer's settings.
    package var bouncer: AudioBouncer {
        var bouncer = AudioBouncer()
        bouncer.sampleRate = sampleRate
        bouncer.gain = gain
        bouncer.reverb = !noReverb
        bouncer.chorus = !noChorus
        bouncer.polyphony = polyphony
        bouncer.maximumTailSeconds = maximumTailSeconds
        return bouncer
    }

    /// The sound's settings: the synthesizer, the SoundFont, the loudness.
    public var soundSettings: SoundSettings {
        SoundSettings(bouncer: bouncer, soundFontPath: soundFont, loudness: loudness.target)
    }

    /// `song` as heard: without the notes hidden tracks and channels play, with `--mute-hidden`.
    public func heard(_ song: Song) -> Song { muteHidden ? song.muting(hiddenBy: trackLook) : song }
}

extension RenderSettings {
    /// The warning when frames of these settings are too low to keep the overlays asked of
    /// `song` off its notes, and leave them out (`Scene.overlaysLeftOut`); nil when they are
    /// drawn. Said by `render`, `frame` and a batch's report alike.
    package func overlaysLeftOutWarning(song: Song) -> String? {
        let leftOut = Scene.overlaysLeftOut(song: song, settings: self)
        guard let last = leftOut.last else { return nil }
        let named = leftOut.count == 1 ? last : leftOut.dropLast().joined(separator: ", ") + " and " + last
        return "--size \(width)x\(height): too low to keep \(named) off the notes: left out"
    }

    /// Settings a render can use: what `RenderOptions.validate(forVideo:)` asks of the size,
    /// the frame rate, the speed and the window, for settings made without options.
    func check(forVideo: Bool) throws(RenderError) {
        var options = RenderOptions()
        options.size = FrameSize(width: width, height: height)
        options.fps = frameRate
        options.speed = speed
        options.window = window
        options.backgroundDim = 0
        do { try options.validate(forVideo: forVideo) } catch { throw .option(error) }
    }
}

extension RenderRequest {
    /// A request to render `song` with `options` into `outputs`: the options checked, the
    /// frames' settings made (the background image read), the time range resolved against the
    /// song. The sound is made when an output holds it: a WAV, or a video with sound unless
    /// `noAudio`.
    /// - Parameters:
    ///   - songPath: the song's file (no output may replace it); nil for a built-in song.
    ///   - songName: the name messages use for the song.
    ///   - jobs: the cores to render on when `options.jobs` is nil.
    public init(
        song: Song, songPath: String?, songName: String, options: RenderOptions, outputs: [RenderOutput],
        segment: RenderSegment? = nil, defaultJobs: Int
    ) throws(RenderError) {
        let settings = try options.settings(for: song, songName: songName, forVideo: outputs.contains(where: \.needsEvenSides))
        let wantsSound =
            outputs.contains { if case .wav = $0 { return true } else { return false } }
            || (outputs.contains { $0.container?.hasSound == true } && !options.noAudio)
        self.init(
            song: options.heard(song), songPath: songPath, songName: songName, settings: settings, fontPath: options.fontPath,
            sound: wantsSound ? options.soundSettings : nil, outputs: outputs, jobs: options.jobs ?? defaultJobs)
        func seconds(_ spec: TimeSpec?, _ name: String) throws(RenderError) -> Double? {
            guard let spec else { return nil }
            // Values the option's text cannot give, set by hand.
            let possible =
                switch spec {
                case .seconds(let seconds): seconds.isFinite && seconds >= 0
                case .bar(let number): number >= 1
                }
            guard possible else { throw .option(.outOfRange(option: name, value: spec.optionText, allowed: TimeSpec.expected)) }
            guard let seconds = spec.seconds(in: song) else {
                throw .noBarsToCount(option: name, time: spec.optionText, song: songName)
            }
            return seconds
        }
        startSeconds = try seconds(options.from, "from") ?? 0
        endSeconds = try seconds(options.to, "to")
        maximumSongSeconds = options.maximumSongSeconds
        stallTimeoutSeconds = options.stallTimeoutSeconds
        crf = options.crf
        preset = options.preset
        backgroundImagePath = options.backgroundImage
        if let path = options.backgroundVideo {
            backgroundVideo = try BackgroundVideo.probe(path, dim: options.backgroundDim, end: options.backgroundVideoEnd)
        }
        self.segment = segment
        if segment != nil { segmentOptionsSHA256 = try options.segmentOptionsDigest(withSound: wantsSound) }
        // A range starts where asked unless a preroll is given.
        prerollSeconds = options.preroll ?? (options.from != nil ? 0 : nil)
        postrollSeconds = options.postroll
    }
}

extension PosterRender {
    /// The frame of `song` at `seconds` with `options` (their look), as a PNG at `path`.
    /// - Parameters:
    ///   - songPath: the song's file (the PNG may not replace it); nil for a built-in song.
    ///   - pngLevel: zlib's level, 0 (fastest) to 9 (smallest).
    ///   - configFiles: files the options came from (the PNG may not replace one).
    /// - Returns: the warnings a render would give, worded for the command line: the loader's
    ///   repairs of the song, notes outside the keys, overlays left out of a frame too low.
    @discardableResult
    public static func render(
        song: Song, songPath: String?, options: RenderOptions, atSeconds seconds: Double, to path: String,
        pngLevel: Int = 6, configFiles: [String] = []
    ) throws(RenderError) -> [String] {
        var settings = try options.settings(for: song, songName: songPath ?? "the song")
        if let video = options.backgroundVideo {
            // The clip's frame a render would show at this moment, as a picture.
            let end = song.durationSeconds + settings.tailSeconds
            guard seconds.isFinite, seconds >= 0, seconds <= end else {
                throw .timeOutsideSong(seconds: seconds, song: songPath ?? "the song", lengthSeconds: end)
            }
            settings.backgroundImage = try BackgroundVideo.probe(video, dim: options.backgroundDim, end: options.backgroundVideoEnd)
                .picture(atSeconds: seconds, settings: settings)
        }
        let leftOut = try render(
            song: song, songPath: songPath, settings: settings, fontPath: options.fontPath,
            atSeconds: seconds, to: path, pngLevel: pngLevel, maximumSongSeconds: options.maximumSongSeconds,
            backgroundImagePath: options.backgroundImage ?? options.backgroundVideo, configFiles: configFiles)
        return options.warnings(for: song, also: leftOut)
    }
}
