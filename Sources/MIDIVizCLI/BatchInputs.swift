import Foundation
import MIDIVizEngine

/// One song of a batch: its file, and its output under `--output-dir`, named from the file's
/// path relative to the folder it was found in (a file given by itself: its name).
struct BatchSong {
    var input: String
    /// The input's path relative to its root, the song's name in reports.
    var relativePath: String
    var output: String
    /// A manifest line's options; nil for the command line's.
    var options: RenderOptions? = nil
}

enum BatchInputs {
    static let extensions: Set<String> = ["mid", "midi", "kar", "rmi"]

    /// The songs of `inputs` (files, folders searched recursively, manifests), in a stable order,
    /// each with its output; refused before any work when an input is missing or two map to one output.
    static func songs(_ inputs: [String], outputDirectory: String, base: RenderOptions) throws(BatchError) -> [BatchSong] {
        var songs: [BatchSong] = []
        let files = FileManager.default
        for input in inputs {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: input, isDirectory: &isFolder) else { throw .usage("\(input): no such file or folder") }
            if !isFolder.boolValue && BatchManifest.isManifest(input) {
                songs += try BatchManifest.songs(input, outputDirectory: outputDirectory, base: base).map(\.0)
            } else if isFolder.boolValue {
                let root = URL(fileURLWithPath: input).standardizedFileURL.path
                guard let walker = files.enumerator(atPath: root) else { throw .usage("\(input): cannot read the folder") }
                var found: [String] = []
                while let relative = walker.nextObject() as? String {
                    guard extensions.contains(URL(fileURLWithPath: relative).pathExtension.lowercased()) else { continue }
                    var isSubfolder: ObjCBool = false
                    if files.fileExists(atPath: root + "/" + relative, isDirectory: &isSubfolder), !isSubfolder.boolValue {
                        found.append(relative)
                    }
                }
                for relative in found.sorted() {
                    songs.append(BatchSong(input: root + "/" + relative, relativePath: relative,
                                           output: outputPath(for: relative, in: outputDirectory)))
                }
            } else {
                let name = URL(fileURLWithPath: input).lastPathComponent
                songs.append(BatchSong(input: input, relativePath: name, output: outputPath(for: name, in: outputDirectory)))
            }
        }
        var seen: [String: String] = [:]
        for song in songs {
            if let other = seen[song.output] {
                throw .usage("\(other) and \(song.input) would both be written to \(song.output)")
            }
            seen[song.output] = song.input
        }
        return songs
    }

    /// `song.mid` → `DIR/song.mp4`, `album/track.kar` → `DIR/album/track.mp4`.
    static func outputPath(for relative: String, in directory: String) -> String {
        var stem = Substring(relative)
        if let dot = stem.lastIndex(of: "."), !stem[dot...].contains("/") { stem = stem[..<dot] }
        return (directory.hasSuffix("/") ? directory : directory + "/") + stem + ".mp4"
    }
}

/// What stops a batch before any song is rendered.
enum BatchError: Error, Equatable {
    case usage(String)
}
