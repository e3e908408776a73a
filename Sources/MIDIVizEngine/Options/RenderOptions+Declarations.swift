import MIDIVizCore
import MIDIVizIO

extension RenderOptions {
    /// Every render option, in the order help and `--print-config` list them. Adding an option
    /// is one line here, a property in `RenderOptions` and its effect.
    package static let declarations: [OptionDeclaration] = look + sound + render + limits

    /// The declaration named `name` (its long name without dashes).
    package static func declaration(_ name: String) -> OptionDeclaration? { byName[name] }

    private static let byName = Dictionary(uniqueKeysWithValues: declarations.map { ($0.name, $0) })

    private static let look: [OptionDeclaration] = [
        .value("style", .look, \.style, help: "Visual style: \(RenderSettings.Style.helpText)."),
        .value("scheme", .look, \.scheme, help: "Colour scheme: rainbow, fire or ocean."),
        .value("color-by", .look, \.colorBy, help: "Colour notes by pitch, channel or track."),
        .value("bars", .look, \.bars, help: "Bars over the song's pitch range (range) or the 12 pitch classes (pitch-class)."),
        .value(
            "size", .look, \.size, help: "Frame size: WIDTHxHEIGHT, 720p, 1080p, 4k, square (1080x1080) or vertical (1080x1920).",
            expected: "WIDTHxHEIGHT, 720p, 1080p, 4k, square or vertical",
            choices: FrameSize.named.map(\.name) + ["1920x1080"],
            // Checked where it is set (a config file's line too), not only when rendering.
            allowed: ({ (1...maximumSide).contains($0.width) && (1...maximumSide).contains($0.height) }, "from 1x1 to \(maximumSide)x\(maximumSide)")),
        .value(
            "fps", .look, \.fps,
            help:
                "Frames per second: a whole number, or a broadcast rate to match footage edited beside the render: 30000/1001 (or 29.97), 60000/1001 (59.94), 24000/1001 (23.976), 48000/1001 (47.952).",
            expected: "a whole number, a fraction such as 30000/1001 or a decimal such as 29.97",
            allowed: (
                { rate in rate.denominator == 1 ? (1...240).contains(rate.numerator) : FrameRate.broadcast.contains { $0.rate == rate } },
                "a whole number from 1 to 240, or 24000/1001, 30000/1001, 48000/1001 or 60000/1001 (23.976, 29.97, 47.952, 59.94)"
            ), example: "30000/1001"),
        .value(
            "speed", .look, \.speed, help: "Animation speed, 0.5 to 2.0: how fast released notes fade.",
            allowed: between(RenderSettings.speedRange), example: "1.5"),
        .flag("grid", .look, \.grid, help: "Draw a faint background grid."),
        .optional(
            "background", .look, \.background,
            help: "Background: a colour as #RRGGBB (a gradient from it to a darker shade), or transparent (PNG frames, .mov, .webm and .gif keep the alpha).",
            expected: "#RRGGBB or transparent", choices: ["transparent", "#202040"]),
        .optional(
            "background-image", .look, \.backgroundImage, help: "A picture (PNG or JPEG) behind the notes, scaled to cover the frame.",
            valueName: "file", isPath: true, example: "picture.png"),
        .optional(
            "background-video", .look, \.backgroundVideo,
            help:
                "A video behind the notes, scaled to cover the frame and looped; frame N of a whole render shows the clip's frame N (a range or segment shows what the whole render would). Decoded by ffmpeg as a stream.",
            valueName: "file", isPath: true, example: "clip.mp4"),
        .value(
            "background-video-end", .look, \.backgroundVideoEnd,
            help: "What --background-video does after its last frame: loop (start again) or hold (keep showing it)."),
        .value(
            "background-dim", .look, \.backgroundDim,
            help: "How much to darken --background-image or --background-video, 0 to 1, to keep the notes readable.",
            valueName: "amount", allowed: between(0.0...1.0), example: "0.6"),
        .optional(
            "window", .look, \.window,
            help:
                "Seconds of music on screen in roll and keyboard (default: 8 for roll, 3 for keyboard, over --speed; roll rounds it, by up to 10 %, so that notes move whole pixels a frame, as keyboard does in a dense song by shortening it).",
            valueName: "seconds", allowed: between(RenderSettings.windowRange), example: "5"),
        .value(
            "keys", .look, \.keys,
            help:
                "Keys of the keyboard style: 88 (A0 to C8), song (the song's range in whole octaves) or two keys LOW-HIGH such as C2-C7 (middle C is C4; also the roll's rows, the bars and the circles' heights). Notes outside are not drawn, and counted in a warning.",
            valueName: "88|song|LOW-HIGH", expected: "88, song or two keys LOW-HIGH such as C2-C7", choices: ["88", "song", "C2-C7"],
            allowed: ({ $0.span != nil || RenderSettings.KeyRange.allCases.contains($0) }, "two keys from low to high, such as C2-C7"),
            example: "C2-C7"),
        .flag("chords", .look, \.chords, help: "Name the chord sounding now (C, Am7, G/B, ...) in the top right corner."),
        .optional(
            "title", .look, \.title,
            help: "A title for the top left corner (default: a .kar's title, its first @T line, else the song's first track name, if any; \"\" for none).",
            example: "Prelude"),
        .value(
            "labels", .look, \.labels,
            help:
                "Write note names on falling notes, roll notes and lit keys where they fit, spelled by the key signature: names (C4, Eb5) or solfege (Do, Mib). `--labels` alone means names.",
            valueName: "names|solfege", bare: .init(value: "names", off: "off")),
        .flag(
            "lyrics", .look, \.lyrics,
            help: "Show the song's lyrics (lyric events, or .kar text) as a two-line karaoke display, each syllable lit as it is sung."),
        .flag("effects", .look, \.effects, help: "Sparks where notes strike (every style) and a flash on the roll's playhead."),
        .flag(
            "sheet", .look, \.sheet,
            help:
                "A band of engraved sheet music at the top, scrolling past a playhead (needs MuseScore 3 and Verovio; --style sheet shows it alone). The engraving is kept in $MIDIVIZ_CACHE, else $XDG_CACHE_HOME/midiviz or ~/.cache/midiviz, for the next run (MIDIVIZ_CACHE=off: not kept)."
        ),
        .optional(
            "split", .look, \.split,
            help:
                "Colour notes by hand: below this key (such as C4) the left hand's colour, at or above it the right hand's; auto finds the split as the hands move (every 2 s, the key that best parts the pitches sounding then into two hands, smoothed). With --track-color, two shades of the track's colour.",
            valueName: "KEY|auto", expected: "a key such as C4, or auto", choices: ["C4", "auto"], example: "C4"),
        .optional(
            "direction", .look, \.direction,
            help:
                "The way notes travel: in keyboard towards the keys at that end (down by default; up puts the keys at the top, left and right at a side), in roll towards the playhead and the keys at that side (left by default). Not for circles and bars.",
            valueName: "up|down|left|right", example: "up"),
        .flag(
            "velocity", .look, \.velocity,
            help:
                "Show each note's velocity: brightness over the whole range (softest dim, loudest full) in every style but sheet, and thickness: narrower falling notes and bars, thinner roll notes for softer notes (circles are sized by velocity anyway)."
        ),
        .list(
            "track-color", .look, \.trackColors,
            help: "A colour for one track's notes, numbered as `midiviz info` lists the tracks (from 0); repeatable.",
            valueName: "N=#RRGGBB", expected: "N=#RRGGBB", allowed: ({ $0.number >= 0 }, "a track numbered from 0, as `midiviz info` lists them"),
            example: "1=#FF8800"),
        .list(
            "channel-color", .look, \.channelColors, help: "A colour for one channel's notes (channels 1 to 16); repeatable. A track's colour wins.",
            valueName: "C=#RRGGBB", expected: "C=#RRGGBB", allowed: ({ (1...16).contains($0.number) }, "a channel from 1 to 16"), example: "10=#808080"),
        .list(
            "hide-track", .look, \.hiddenTracks,
            help: "Do not draw this track's notes (still heard, unless --mute-hidden); repeatable.", valueName: "N",
            allowed: ({ $0 >= 0 }, "a track numbered from 0, as `midiviz info` lists them"), example: "1"),
        .list(
            "hide-channel", .look, \.hiddenChannels,
            help: "Do not draw this channel's notes (1 to 16; still heard, unless --mute-hidden); repeatable.", valueName: "C",
            allowed: ({ (1...16).contains($0) }, "a channel from 1 to 16"), example: "10"),
        .list(
            "only-track", .look, \.onlyTracks, help: "Draw only this track's notes; repeatable.", valueName: "N",
            allowed: ({ $0 >= 0 }, "a track numbered from 0, as `midiviz info` lists them"), example: "0"),
        .optional(
            "font", .look, \.font,
            help: "A TrueType/OpenType font for labels (default: DejaVu Sans, \(FontRasterizer.defaultFontPath)).",
            valueName: "file", isPath: true, example: "font.ttf"),
    ]

    private static let sound: [OptionDeclaration] = [
        .optional(
            "soundfont", .sound, \.soundFont,
            help:
                "The SoundFont (.sf2 or .sf3) (default: $MIDIVIZ_SOUNDFONT, then Debian's MuseScore General, uncompressed /usr/share/sounds/sf2/MuseScore_General_Full.sf2 or sf3/MuseScore_General.sf3, then sf3/default-GM.sf3, sf2/default-GM.sf2, FluidR3_GM.sf2, TimGM6mb.sf2).",
            valueName: "file", isPath: true, example: "sound.sf2"),
        .value(
            "sample-rate", .sound, \.sampleRate, help: "Audio sample rate in Hz (48000 suits video; 44100 also common).",
            allowed: between(8_000...192_000), example: "44100"),
        .value("gain", .sound, \.gain, help: "Synthesizer gain, as fluidsynth's -g.", allowed: between(0.0...10.0), example: "0.5"),
        .flag("no-reverb", .sound, \.noReverb, help: "Turn the synthesizer's reverb off."),
        .flag("no-chorus", .sound, \.noChorus, help: "Turn the synthesizer's chorus off."),
        .value(
            "polyphony", .sound, \.polyphony,
            help:
                "Voices the synthesizer plays at once, as fluidsynth's synth.polyphony (a note may take two or more); when all are busy FluidSynth stops the least needed, released ones first, then the oldest. A dense song (black MIDI) keeps them all busy and its sound costs in proportion: fewer is faster and thinner, more fuller and slower (each voice also takes about 11 KB).",
            valueName: "voices", allowed: between(1...16_384), example: "1024"),
        .value(
            "max-tail", .sound, \.maximumTailSeconds, help: "Seconds the sound may ring on after the song's end, at most.",
            valueName: "seconds", allowed: between(0.0...60.0), example: "1.5"),
        .value(
            "loudness", .sound, \.loudness,
            help: "Normalize the sound to this integrated loudness in LUFS (EBU R128, true peak at most -1 dBTP), or off to keep the synthesizer's level.",
            valueName: "LUFS|off", expected: "a loudness in LUFS or off",
            allowed: (
                { if case .target(let lufs) = $0 { return LoudnessTarget.range.contains(lufs) } else { return true } },
                "between -70 and 0 LUFS, or off"
            ),
            mayBeNegative: true, example: "-16"),
        .flag("mute-hidden", .sound, \.muteHidden, help: "Silence the notes --hide-track, --hide-channel and --only-track hide."),
    ]

    private static let render: [OptionDeclaration] =
        [
            .value("crf", .render, \.crf, help: "x264 constant rate factor (0-51; lower is better and bigger).", allowed: between(crfs), example: "23"),
            .value(
                "preset", .render, \.preset,
                help: "x264 preset: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.",
                choices: presets, allowed: ({ presets.contains($0) }, "one of " + presets.joined(separator: ", "))),
            .flag("no-audio", .render, \.noAudio, help: "A silent video: no SoundFont needed."),
        ] + timeRange + run

    /// x264's constant rate factors.
    package static let crfs = 0...51
    /// x264's presets, fastest first.
    package static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    private static let timeRange: [OptionDeclaration] = [
        .optional(
            "from", .render, \.from, help: "Start at this time (the nearest frame): seconds, mm:ss.fff or bar:N.",
            expected: TimeSpec.expected, mayBeNegative: true, example: "1.5"),
        .optional(
            "to", .render, \.to, help: "End at this time: seconds, mm:ss.fff or bar:N (default: the end plus the release tail).",
            expected: TimeSpec.expected, mayBeNegative: true, example: "bar:3"),
        .optional(
            "preroll", .render, \.preroll,
            help:
                "Seconds of picture (and silence) before the start (default: for a whole song, the time notes take to reach the keys or playhead, so the first frame shows no note; none with --from).",
            valueName: "seconds", allowed: between(RenderRequest.rollRange), example: "0.5"),
        .value(
            "postroll", .render, \.postroll, help: "Seconds of picture after the end.", valueName: "seconds",
            allowed: between(RenderRequest.rollRange), example: "1"),
    ]

    private static let run: [OptionDeclaration] = [
        .optional(
            "jobs", .render, \.jobs,
            help:
                "Render on this many cores (default: all of them); batch: render this many songs at once, each on the cores left to it (default: 1).",
            valueName: "n",
            allowed: ({ $0 >= 1 }, "at least 1"), perSong: false, example: "2", shapesOutput: false),
        .value(
            "stall-timeout", .render, \.stallTimeoutSeconds, help: "Fail when ffmpeg takes no frame for this many seconds.",
            valueName: "seconds", allowed: ({ $0 > 0 && $0.isFinite }, "a positive number of seconds"), example: "30", shapesOutput: false),
    ]

    private static let limits: [OptionDeclaration] = [
        .value(
            "max-duration", .limits, \.maximumSongSeconds, help: "Refuse songs longer than this many seconds.",
            valueName: "seconds", allowed: ({ $0 > 0 && $0.isFinite }, "a positive number of seconds"), example: "600", shapesOutput: false)
    ]
}
