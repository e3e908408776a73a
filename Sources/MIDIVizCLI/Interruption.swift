import Dispatch
import Foundation

/// On SIGINT or SIGTERM, runs a cleanup and exits with 130 or 143 (128 + the signal).
final class Interruption {
    private var sources: [DispatchSourceSignal] = []

    init(cleanup: @escaping @Sendable () -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                cleanup()
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
