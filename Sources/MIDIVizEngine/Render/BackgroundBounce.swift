import Foundation
import Synchronization

/// The sound, made on its own thread beside the frames; `wait()` returns its length in seconds.
final class BackgroundBounce: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Double, RenderError>>(.failure(.failed("the sound was not made")))

    init(_ work: @escaping @Sendable () throws(RenderError) -> Double) {
        Thread.detachNewThread { [self] in
            let made: Result<Double, RenderError>
            do throws(RenderError) {
                made = .success(try work())
            } catch {
                made = .failure(error)
            }
            result.withLock { $0 = made }
            done.signal()
        }
    }

    func wait() -> Result<Double, RenderError> {
        done.wait()
        return result.withLock { $0 }
    }
}
