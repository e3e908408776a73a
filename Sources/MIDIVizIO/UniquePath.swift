import Foundation

/// New files and folders under names nothing else has: the trailing `XXXXXX` of a template
/// filled by the C library, which makes the file or folder only if the name is free. On nil,
/// `errno` says why. The corresponding C functions are `mkstemp` and `mkdtemp`.
package enum UniquePath {
    /// A new empty file (read and write for its owner): its path and an open descriptor, which
    /// the caller closes.
    package static func file(_ template: String) -> (path: String, descriptor: Int32)? {
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        return (bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, descriptor)
    }

    /// A new empty folder (for its owner only): its path.
    package static func folder(_ template: String) -> String? {
        var bytes = Array(template.utf8CString)
        guard let made = bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: made)
    }
}
