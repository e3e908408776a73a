import ArgumentParser
import Foundation
import MIDIVizEngine

/// Prints `midiviz: message` on stderr and exits with `code` (sysexits.h values).
func fail(_ message: String, code: Int32) -> ExitCode {
    FileHandle.standardError.write(Data("midiviz: \(message)\n".utf8))
    return ExitCode(code)
}

extension RenderError {
    /// The one place an engine error becomes what the user sees: one line and its exit code.
    var reported: ExitCode { fail(message, code: exitCode) }

    /// The line the user reads: options named as flags.
    var message: String {
        if case .option(let error) = self { return error.message(prefix: "--") }
        return description
    }
}
