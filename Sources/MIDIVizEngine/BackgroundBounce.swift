import Foundation

/// The sound, made on its own thread beside the frames; `wait()` returns its length in seconds.
final class BackgroundBounce: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Double, RenderError>?

    init(_ work: @escaping @Sendable () throws(RenderError) -> Double) {
        Thread.detachNewThread { [self] in
            do throws(RenderError) {
                result = .success(try work())
            } catch {
                result = .failure(error)
            }
            done.signal()
        }
    }

    func wait() -> Result<Double, RenderError> {
        done.wait()
        return result!
    }
}
