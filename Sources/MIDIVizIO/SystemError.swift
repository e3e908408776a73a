import Glibc
import SystemPackage

/// The words for an `errno` value, as `strerror(3)` gives them, through swift-system's `Errno`:
/// the one place a system call's failure becomes text. The default is the `errno` of the call
/// that just failed, so call this at once, before any other call.
package func systemError(_ code: Int32 = errno) -> String {
    Errno(rawValue: code).description
}
