/// Why a batch, or a report of one, could not go on: one line naming the file and the cause,
/// with the exit code the command line uses (sysexits.h values). A song that fails is no
/// `BatchError`: it is a failed `BatchResult`, and the batch goes on.
public enum BatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Inputs, a manifest line, a shard or an output refused before any work (64).
    case usage(String)
    /// A report read back that is not a batch report, or songs in two of them (65).
    case badReport(String)
    /// A report or record that cannot be written (73).
    case cannotWrite(String)
    /// A report to merge that is not there or cannot be read (66).
    case missingReport(String)
    /// An input (a song, a folder, a manifest) that is not there (66).
    case missingInput(String)

    public var description: String {
        switch self {
        case .usage(let message), .badReport(let message), .cannotWrite(let message), .missingReport(let message),
            .missingInput(let message):
            return message
        }
    }

    /// The line the user reads.
    public var message: String { description }

    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .badReport: return 65
        case .cannotWrite: return 73
        case .missingReport, .missingInput: return 66
        }
    }
}
