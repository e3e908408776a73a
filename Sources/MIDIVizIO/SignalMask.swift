import Glibc

/// The calling thread's set of blocked signals. A child started by `posix_spawn` inherits it,
/// and a Dispatch worker thread blocks nearly every signal: a child started from one would not
/// stop when sent SIGTERM or SIGINT. The corresponding C function is `pthread_sigmask`.
enum SignalMask {
    /// Runs `body` with no signal blocked in the calling thread, then blocks again what was.
    /// A signal arriving meanwhile goes to its process-wide handler, as on any other thread.
    static func withNoneBlocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        let changed = pthread_sigmask(SIG_SETMASK, &none, &previous) == 0
        defer { if changed { pthread_sigmask(SIG_SETMASK, &previous, nil) } }
        return try body()
    }
}
