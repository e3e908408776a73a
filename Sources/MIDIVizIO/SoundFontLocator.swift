import Foundation

/// Finds the SoundFont to play with: `--soundfont`, else `$MIDIVIZ_SOUNDFONT`, else Debian's
/// General MIDI SoundFonts, best first: MuseScore General uncompressed
/// (`musescore-general-soundfont-lossless`: the same instruments as the SF3 without its Vorbis
/// to decode, about a second less per render), MuseScore General (`musescore-general-soundfont`;
/// `scripts/setup` installs both), whatever Debian's alternatives name the default, FluidR3,
/// TimGM6mb.
package enum SoundFontLocator {
    package static let debianDefaults = [
        "/usr/share/sounds/sf2/MuseScore_General_Full.sf2",
        "/usr/share/sounds/sf3/MuseScore_General.sf3",
        "/usr/share/sounds/sf3/default-GM.sf3",
        "/usr/share/sounds/sf2/default-GM.sf2",
        "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf2/TimGM6mb.sf2",
    ]

    package static func locate(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        defaults: [String] = debianDefaults
    ) throws(AudioError) -> String {
        if let path = explicit ?? environment["MIDIVIZ_SOUNDFONT"].flatMap({ $0.isEmpty ? nil : $0 }) {
            // Where the path came from, when not from the command line (a variable set long ago).
            let from = explicit == nil ? " (from $MIDIVIZ_SOUNDFONT)" : ""
            if let problem = RegularFile.problem(at: path) { throw .unreadableSoundFont(path: path, reason: problem + from) }
            guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadableSoundFont(path: path, reason: "permission denied" + from) }
            return path
        }
        guard let found = defaults.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
            throw .noSoundFont(searched: defaults)
        }
        return found
    }
}
