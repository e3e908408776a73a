import ArgumentParser
import Foundation
import MIDIVizCore
import MIDIVizIO

/// `midiviz render SONG.mid --frames-dir DIR --audio OUT.wav`: the frames of the whole song plus
/// its release tail as PNG files, and its sound as a WAV. (The MP4 is the next step; until then
/// frames and WAV are the outputs.)
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a song's frames as PNG files and its sound as a WAV.",
        discussion: "Frame n (numbered from 1) shows the song at (n-1)/fps seconds; the last frames show the final notes fading out.")

    @Argument(help: "The Standard MIDI File.")
    var song: String

    @Option(name: .customLong("frames-dir"), help: "Write frame_000001.png … into this folder (created if needed).")
    var framesDirectory: String?

    @Option(name: .customLong("png-level"), help: "zlib compression level 0-9 (1: fast, about 84 KB a 1080p frame).")
    var pngLevel: Int = 1

    @Option(help: "Render on this many cores (default: all).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .customLong("max-duration"), help: "Refuse songs longer than this many seconds.")
    var maxDuration: Double = 3600

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var look: LookOptions

    @OptionGroup var sound: AudioOptions

    func validate() throws {
        guard framesDirectory != nil || sound.audio != nil else {
            throw ValidationError("say what to write: --frames-dir DIR and/or --audio FILE.wav (video output is not built yet)")
        }
        guard (0...9).contains(pngLevel) else { throw ValidationError("--png-level must be 0 to 9, not \(pngLevel)") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard maxDuration > 0 else { throw ValidationError("--max-duration must be positive") }
    }

    func run() throws {
        let loaded = try loadSongOrExit(song)
        guard loaded.durationSeconds <= maxDuration else {
            throw fail("cannot render \(song): it lasts \(Int(loaded.durationSeconds)) s, more than --max-duration \(Int(maxDuration)) s",
                       code: ExitCodes.dataError)
        }
        var soundFont: String? = nil
        if sound.audio != nil {
            do {
                soundFont = try SoundFontLocator.locate(explicit: sound.soundfont)
            } catch {
                throw fail(error.description, code: error.exitCode)
            }
        }
        let started = Date()
        // The bounce runs beside the frames, on its own thread.
        let audioJob = soundFont.map { font in
            BackgroundJob { () throws(AudioError) -> AudioBouncer.Result in try sound.bouncer.bounce(loaded, soundFont: font, to: sound.audio!) }
        }
        var frameSummary = ""
        if let framesDirectory {
            frameSummary = try renderFrames(of: loaded, into: framesDirectory)
        }
        if let audioJob {
            switch audioJob.wait() {
            case .success(let result):
                frameSummary += String(format: "%@%@ (%.3f s, %.2f s tail)", frameSummary.isEmpty ? "" : "; ", sound.audio!, result.seconds, result.tailSeconds)
            case .failure(let error):
                throw fail(error.description, code: error.exitCode)
            }
        }
        if !quiet {
            let seconds = Date().timeIntervalSince(started)
            FileHandle.standardError.write(Data(String(format: "midiviz: %@ in %.1f s\n", frameSummary, seconds).utf8))
        }
    }

    /// Renders every frame into `path`; returns a summary for the last line.
    private func renderFrames(of loaded: Song, into path: String) throws -> String {
        let settings = look.settings
        let fonts = try loadFontsOrExit(look.font, canvasHeight: settings.height)
        let scene = Scene(song: loaded, settings: settings)
        let frameCount = scene.frameCount
        let directory: StagedDirectory
        do {
            directory = try StagedDirectory(path: path)
        } catch {
            throw fail(error.description, code: ExitCodes.cannotCreate)
        }
        let interruption = Interruption { directory.discard() }
        defer { interruption.cancel() }
        let reporter = ProgressReporter(total: frameCount, enabled: !quiet)
        let started = Date()
        do {
            try FrameSequenceWriter(renderer: FrameRenderer(scene: scene, fonts: fonts), png: PNGWriter(level: pngLevel), jobs: jobs)
                .write(frames: 0..<frameCount, to: directory) { reporter.update(done: $0) }
            try directory.commit()
        } catch {
            directory.discard()
            reporter.finish()
            throw fail(String(describing: error), code: ExitCodes.cannotCreate)
        }
        reporter.finish()
        let rate = Double(frameCount) / max(Date().timeIntervalSince(started), 1e-9)
        return String(format: "%d frames (%.3f s at %d fps, %.1f frames/s) in %@", frameCount,
                      Double(frameCount) / Double(settings.framesPerSecond), settings.framesPerSecond, rate, path)
    }
}
