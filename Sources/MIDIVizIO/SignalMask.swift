import Glibc

/// The calling thread's set of blocked signals. A child started by `posix_spawn` inherits it,
/// and a Dispatch worker thread blocks nearly every signal: a child started from one would not
/// stop when sent SIGTERM or SIGINT. The corresponding C function is `pthread_sigmask`.
enum SignalMask {
    /// Runs `body` with no signal blocked in the calling thread, then blocks again what was.
    /// A signal arriving meanwhile is handled here as on the main thread: by `Interruption`'s
    /// handler while one is installed, else by its default action. Threads started meanwhile
    /// (Foundation's process manager, on the first child) keep the empty mask, which the
    /// handler allows. A signal the child inherits as ignored stays ignored: `Process` cannot
    /// reset it.
    static func withNoneBlocked<Result>(_ body: () throws -> Result) rethrows -> Result {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        let changed = pthread_sigmask(SIG_SETMASK, &none, &previous) == 0
        defer { if changed { pthread_sigmask(SIG_SETMASK, &previous, nil) } }
        return try body()
    }
}
