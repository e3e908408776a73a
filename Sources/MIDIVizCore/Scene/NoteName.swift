/// Note names as Latin-1 bytes, with middle C (MIDI 60) as C4: `C#4`.
public enum NoteName {
    static let pitchClasses = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// Names of the 128 MIDI pitches.
    public static let all: [[UInt8]] = (0..<128).map { Array(name(of: UInt8($0)).utf8) }

    /// Names of the 12 pitch classes without octave.
    public static let classes: [[UInt8]] = pitchClasses.map { Array($0.utf8) }

    public static func name(of pitch: UInt8) -> String {
        pitchClasses[Int(pitch) % 12] + String(Int(pitch) / 12 - 1)
    }
}
