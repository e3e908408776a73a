import ArgumentParser
import MIDIVizCore

/// `--from` / `--to`: seconds (`12.5`), `mm:ss.fff`, or a bar (`bar:17`, counted with the
/// song's time signatures).
enum TimeSpec: ExpressibleByArgument, Equatable {
    case seconds(Double)
    case bar(Int)

    init?(argument: String) {
        if argument.lowercased().hasPrefix("bar:") {
            guard let number = Int(argument.dropFirst(4)), number >= 1 else { return nil }
            self = .bar(number)
        } else if let time = SongTime(argument: argument) {
            self = .seconds(time.seconds)
        } else {
            return nil
        }
    }

    /// Seconds in `song`, or nil for a bar the song cannot count (SMPTE division).
    func seconds(in song: Song) -> Double? {
        switch self {
        case .seconds(let seconds): return seconds
        case .bar(let number): return song.startSeconds(ofBar: number)
        }
    }
}
