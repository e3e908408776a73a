import Foundation

/// Runs a throwing job on its own thread at once; `wait()` returns its result.
final class BackgroundJob<Success: Sendable, Failure: Error>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Success, Failure>?

    init(_ work: @escaping @Sendable () throws(Failure) -> Success) {
        Thread.detachNewThread { [self] in
            do throws(Failure) {
                result = .success(try work())
            } catch {
                result = .failure(error)
            }
            done.signal()
        }
    }

    func wait() -> Result<Success, Failure> {
        done.wait()
        return result!
    }
}
