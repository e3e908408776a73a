import ArgumentParser

/// The longest song a command takes, shared by `render`, `demo` and `frame`: a file that claims
/// hours (one note at tick 2^28) is refused before any work is sized by its length.
struct SongLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-duration"), help: ArgumentHelp("Refuse songs longer than this many seconds (default: 3600).", valueName: "seconds"))
    var maxDurationOption: Double?

    var maxDuration: Double { maxDurationOption ?? 3600 }

    func validate() throws {
        guard maxDuration > 0, maxDuration.isFinite else { throw ValidationError("--max-duration must be a positive number of seconds") }
    }
}
