import Foundation

/// Input paths handed to C libraries that open them themselves (FreeType, FluidSynth): a FIFO
/// would block `open` forever and a device read endlessly, so anything but a regular file is
/// refused first. The corresponding C function is `stat`.
package enum RegularFile {
    /// Why `path` cannot be read as a regular file, or nil when it can be.
    package static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT ? "no such file" : systemError() }
        if info.st_mode & S_IFMT == S_IFDIR { return "it is a folder" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "not a regular file (a device, FIFO or socket)" }
        return nil
    }
}
