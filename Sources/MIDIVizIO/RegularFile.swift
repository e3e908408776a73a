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

    /// Why a file's bytes were not read.
    package enum ReadFailure: Error, Equatable {
        /// Missing, not a regular file, or `open`/`read` failed: why.
        case unreadable(String)
        /// Longer than the limit asked for.
        case tooLarge(bytes: Int)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them. Opened without
    /// blocking, so that a FIFO put there after the check cannot hold the call. The
    /// corresponding C functions are `open`, `fstat` and `read`.
    package static func contents(of path: String, limit: Int) throws(ReadFailure) -> [UInt8] {
        if let problem = problem(at: path) { throw .unreadable(problem) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(systemError()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(systemError()) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable("not a regular file (a device, FIFO or socket)") }
        guard Int(info.st_size) <= limit else { throw .tooLarge(bytes: Int(info.st_size)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(systemError()) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { throw .tooLarge(bytes: bytes.count) }
        }
    }
}
