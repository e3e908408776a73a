import Foundation
import MIDIVizCore
import MIDIVizIO

/// One frame as a PNG (`midiviz frame`), with a render's checks and its all-or-nothing write.
public enum PosterRender {
    /// Returns what the frame leaves out, worded for the command line (overlays in a frame too
    /// low for them).
    @discardableResult
    package static func render(
        song: Song, songPath: String?, settings: RenderSettings, fontPath: String,
        atSeconds seconds: Double, to path: String, pngLevel: Int,
        maximumSongSeconds: Double = RenderRequest.defaultMaximumSongSeconds,
        backgroundImagePath: String? = nil, configFiles: [String] = []
    ) throws(RenderError) -> [String] {
        try settings.check(forVideo: false)
        try OutputChecks.checkPNGLevel(pngLevel)
        try RenderJob.checkLength(of: song, named: songPath ?? "the song", maximum: maximumSongSeconds)
        let end = song.durationSeconds + settings.tailSeconds
        guard seconds.isFinite, seconds >= 0, seconds <= end else {
            throw .timeOutsideSong(seconds: seconds, song: songPath ?? "the song", lengthSeconds: end)
        }
        try OutputChecks.check(
            [(path, false)],
            inputs: [(fontPath, "font")] + (songPath.map { [($0, "input song")] } ?? [])
                + (backgroundImagePath.map { [($0, "background image")] } ?? []) + configFiles.map { ($0, "config file") })
        try OutputChecks.checkExtension(of: path, writes: "PNG", extensions: ["png"])
        let fonts = try RenderJob.loadFonts(
            fontPath, canvasSide: settings.textSide,
            extra: Scene.charactersBeyondLatin1(song: song, settings: settings))
        let renderer = FrameRenderer(scene: Scene(song: song, settings: settings), fonts: fonts)
        var workspace = renderer.makeWorkspace()
        renderer.render(at: seconds, in: &workspace)
        let staged = try StagedOutput(finalPath: path, isFolder: false)
        do {
            try PNGWriter(level: pngLevel, alpha: settings.transparent).write(workspace.canvas, to: staged.temporaryPath)
            try staged.commit()
            staged.forgetBackup()
            return [settings.overlaysLeftOutWarning(song: song)].compactMap { $0 }
        } catch let error as RenderError {
            staged.discard()
            throw error.naming([(staged.temporaryPath, path)])
        } catch {
            staged.discard()
            throw RenderError.cannotCreate(String(describing: error)).naming([(staged.temporaryPath, path)])
        }
    }
}
