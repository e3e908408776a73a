import Foundation

/// An output folder written all at once: files go to a hidden staging folder inside it and are
/// moved into place by `commit()`, so a failed or interrupted run leaves no partial frames that
/// look like a finished render.
public final class StagedDirectory: @unchecked Sendable {
    public let finalPath: String
    public let stagingPath: String
    private let lock = NSLock()
    private var isClosed = false

    public struct CreateError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot create \(path): \(reason)" }
    }

    /// Creates `path` (and its parents) if needed and a staging folder inside it.
    public init(path: String) throws(CreateError) {
        finalPath = path
        stagingPath = (path as NSString).appendingPathComponent(".midiviz-partial-\(getpid())")
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CreateError(path: path, reason: Self.reason(error))
        }
        guard mkdir(stagingPath, 0o755) == 0 || errno == EEXIST else {
            throw CreateError(path: path, reason: String(cString: strerror(errno)))
        }
        guard access(stagingPath, W_OK) == 0 else {
            throw CreateError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    public func path(of name: String) -> String { (stagingPath as NSString).appendingPathComponent(name) }

    /// Moves every staged file into the final folder (replacing same-named files) and removes
    /// the staging folder.
    public func commit() throws(CreateError) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: stagingPath)) ?? []).sorted()
        for name in names {
            let target = (finalPath as NSString).appendingPathComponent(name)
            guard rename(path(of: name), target) == 0 else {
                throw CreateError(path: target, reason: String(cString: strerror(errno)))
            }
        }
        rmdir(stagingPath)
    }

    /// Removes the staging folder and what it holds; safe to call more than once.
    public func discard() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        try? FileManager.default.removeItem(atPath: stagingPath)
    }

    private static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return (error as NSError).localizedDescription
    }
}
