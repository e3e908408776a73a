import CFuzzerDriver
import MIDIVizIO

/// libFuzzer entry: any bytes through the front end, libsmf and SongBuilder. A refusal is a
/// normal outcome; a crash, a sanitizer report, a hang or a huge allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let song = try? SongLoader.load(bytes: bytes, name: "fuzz-input") {
        // Use the result so nothing is optimized away, and check an invariant on the way.
        precondition(song.notes.allSatisfy { $0.startSeconds <= $0.endSeconds })
    }
    return 0
}

/// SwiftPM links an executable's entry under the name `<module>_main`; hand control to libFuzzer.
@_cdecl("SMFLoaderFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) }
}
